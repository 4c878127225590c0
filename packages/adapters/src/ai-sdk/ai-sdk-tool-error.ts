import { PlankitError, type ToolFailure } from '@plankit/core';

/**
 * A refused call, thrown from an AI SDK tool's `execute` so the SDK records it as a
 * `tool-error` part (chat UIs show it as an error) and sends the model an `error-text` output.
 * The message is plankit's text (`Tool validation failed: ...`); `cause` is the typed plankit
 * error, and `code` and `field` are its own. A call whose session could not be resolved carries
 * the `SessionResolveError` as `cause`, and its code (`session_unresolved`,
 * `conversation_id_invalid`, ...) as `code`.
 *
 * @public
 */
export class AISDKToolError extends PlankitError<ToolFailure['error']['code']> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'AISDKToolError';

  /** The refused result, as `invokeTool` returned it. */
  readonly result: ToolFailure;

  /**
   * Creates the error from a refused result.
   *
   * @param result - the failure; its message becomes this error's message
   */
  constructor(result: ToolFailure) {
    super(result.error.code, result.message, {
      field: result.error.field,
      cause: result.error,
    });
    this.result = result;
  }

  /**
   * The message alone: `ai` 7 sends the model `error.toString()` (`ai` 6 sends
   * `error.message`), and the model must read plankit's text, not `AISDKToolError: ...`.
   */
  override toString(): string {
    return this.message;
  }

  /** True for an {@link AISDKToolError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is AISDKToolError {
    return PlankitError.hasBrand(value, AISDKToolError.errorName);
  }
}
