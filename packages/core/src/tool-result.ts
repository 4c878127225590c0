import type { PlankitError, PlankitErrorCode } from './plankit-error.ts';
import type { ToolValidationErrorCode } from './tool-validation-error.ts';

/** A tool call that succeeded: the message for the model and the normalised value. @public */
export interface ToolSuccess<R> {
  /** Always `true`: the `ok` every plankit result carries. */
  readonly ok: true;
  /**
   * Always `true`. The reference contract's name for {@link ToolSuccess.ok}, kept so the
   * result serialises as `{ success, message, value }`.
   */
  readonly success: true;
  /** What the model reads. */
  readonly message: string;
  /** The normalised value (for read tools, what was read). */
  readonly value: R;
}

/**
 * A tool call that failed. `message` is what the model reads (`Tool validation failed: ...`
 * or `Tool '<name>' execution failed: ...`); `error` is the typed cause for the host.
 *
 * @public
 */
export interface ToolFailure {
  /** Always `false`: the `ok` every plankit result carries. */
  readonly ok: false;
  /**
   * Always `false`. The reference contract's name for {@link ToolFailure.ok}, kept so the
   * result serialises as `{ success, message, value }`.
   */
  readonly success: false;
  /** What the model reads: `Tool validation failed: ...` or `Tool '<name>' execution failed: ...`. */
  readonly message: string;
  /** Always `null`. */
  readonly value: null;
  /**
   * The typed cause, for the host: its `code` and `field` say what to fix. A custom tool's
   * {@link ToolValidationError} may carry a code of its own.
   */
  readonly error: PlankitError<PlankitErrorCode | ToolValidationErrorCode>;
}

/**
 * What {@link invokeTool} returns: `{ success, message, value }` as in the reference, plus
 * `ok` (equal to `success`) like every other plankit result. `ok` is not enumerable, so
 * `JSON.stringify` and stores see exactly the reference's fields; a copy made with spread or
 * JSON carries only `success`.
 *
 * @public
 */
export type ToolResult<R> = ToolSuccess<R> | ToolFailure;
