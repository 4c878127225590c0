import type { PlankitError } from './plankit-error.ts';

/** A tool call that succeeded: the message for the model and the normalised value. @public */
export interface ToolSuccess<R> {
  readonly success: true;
  readonly message: string;
  readonly value: R;
}

/**
 * A tool call that failed. `message` is what the model reads (`Tool validation failed: ...`
 * or `Tool '<name>' execution failed: ...`); `error` is the typed cause for the host.
 *
 * @public
 */
export interface ToolFailure {
  readonly success: false;
  readonly message: string;
  readonly value: null;
  readonly error: PlankitError;
}

/** What {@link invokeTool} returns: `{ success, message, value }` as in the reference. @public */
export type ToolResult<R> = ToolSuccess<R> | ToolFailure;
