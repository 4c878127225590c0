import * as z from 'zod';
import { defineDataType } from './define-data-type.ts';
import type { ToolSuccess } from './tool-result.ts';

/**
 * One entry of a session's tool-call log: a successful tool invocation, in call order.
 * Failed calls change nothing, so they are not logged; watch {@link ToolInvoked} on the bus
 * to see them.
 *
 * @public
 */
export interface ToolCall {
  /** The tool's name. */
  readonly tool: string;
  /** The parameters after parsing, exactly as the handler received them. */
  readonly params: unknown;
  /** The successful result, as stored: the reference's `{ success, message, value }`. */
  readonly result: Omit<ToolSuccess<unknown>, 'ok'>;
  /** When, in epoch milliseconds. */
  readonly at: number;
}

/**
 * The data type of the tool-call log slice, which every session has. Read it with
 * `selectAll(session, ToolCall)`.
 *
 * @public
 */
export const ToolCall: z.ZodType<ToolCall> = defineDataType(
  'plankit.ToolCall',
  z.strictObject({
    tool: z.string(),
    params: z.unknown(),
    result: z.strictObject({ success: z.literal(true), message: z.string(), value: z.unknown() }),
    at: z.number(),
  }),
);
