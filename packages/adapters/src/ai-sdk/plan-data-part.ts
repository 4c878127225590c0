import { type PlanView, parsePlanView } from '@plankit/core/plan-view';
import * as z from 'zod';

/**
 * The plan's data part as it travels in a UI message stream: a `data-plan` chunk whose `id`
 * stays the same for the conversation's plan, so the client updates the part in place.
 *
 * @public
 */
export interface PlanDataChunk {
  /** Always `data-plan`: the AI SDK's `data-` prefix and the part's name, `plan`. */
  readonly type: 'data-plan';
  /** The part's id: one per plan (see `withPlanUpdates`'s `id` option). */
  readonly id: string;
  /**
   * The plan, or `null` once the conversation has no plan any more (a rollback to before it
   * was set up): the part then clears the plan the client shows.
   */
  readonly data: PlanView | null;
}

/**
 * The data types of the plan part, for the app's own message type:
 * `UIMessage<Metadata, PlanDataTypes & MyDataTypes>`, so a `data-plan` part's `data` is a
 * `PlanView` on the client, with `ai` 6 and 7. It is exactly what the AI SDK's
 * `InferUIDataParts<typeof planDataPartSchemas>` gives on both majors, `readonly` key included
 * (the schemas object is frozen). A type alias, not an interface: the AI SDK's data types must
 * have an index signature, which only an alias gets implicitly.
 *
 * @public
 */
export type PlanDataTypes = {
  /** The `data-plan` part's data: `null` when the part clears the plan (see `PlanDataChunk`). */
  readonly plan: PlanView | null;
};

/**
 * The zod schema of a `data-plan` part's data: it reads the value with `parsePlanView`, so a
 * malformed or foreign part (an older chat, a hand edit) fails validation with the parser's
 * message naming the field, and a valid one comes out as a frozen `PlanView`. `null` passes as
 * `null`: the part that clears the plan after a rollback to before it existed.
 *
 * @public
 */
export const PlanViewSchema: z.ZodType<PlanView | null, unknown> = z
  .unknown()
  .transform((value, context) => {
    if (value === null) return null;
    const read = parsePlanView(value);
    if (read.ok) return read.value;
    context.addIssue({
      code: 'custom',
      message: read.error.message,
      // The parser's field as a path, so zod's message points where the parser does.
      path: read.error.field === '' ? [] : [read.error.field],
    });
    return z.NEVER;
  });

/**
 * The data-part schemas of the plan part, to merge into the app's own: `useChat`'s
 * `dataPartSchemas` and `validateUIMessages`' `dataSchemas` (`{ ...planDataPartSchemas,
 * ...mine }`). Their inferred types are {@link PlanDataTypes}.
 *
 * @example
 * ```ts
 * const messages = await validateUIMessages<ChatMessage>({ messages: body.messages, dataSchemas: planDataPartSchemas });
 * ```
 * @public
 */
export const planDataPartSchemas: { readonly plan: z.ZodType<PlanView | null, unknown> } =
  Object.freeze({
    plan: PlanViewSchema,
  });
