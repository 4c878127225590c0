import { PlankitError } from '@plankit/core';

/**
 * A refused call, thrown from an OpenAI Agents SDK tool's `execute` so the SDK handles it as a
 * tool error: its `errorFunction` hands the message to the model as the call's output, and the
 * SDK marks the tool span as failed. The message is plankit's text (`Tool validation failed: ...`);
 * `code` and `field` are the refusal's own, `cause` the typed plankit error behind it (a
 * `ToolValidationError`, or a `SessionResolveError` when the call names no conversation).
 *
 * @public
 */
export class OpenAIAgentsToolError extends PlankitError<string> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'OpenAIAgentsToolError';

  /**
   * Creates the error.
   *
   * @param cause - the plankit error behind the refusal; its code and field are kept
   * @param message - the text the model reads
   */
  constructor(cause: PlankitError<string>, message: string) {
    super(cause.code, message, { field: cause.field, cause });
  }

  /** The message alone: the model must read plankit's text, not `OpenAIAgentsToolError: ...`. */
  override toString(): string {
    return this.message;
  }

  /** True for an {@link OpenAIAgentsToolError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is OpenAIAgentsToolError {
    return PlankitError.hasBrand(value, OpenAIAgentsToolError.errorName);
  }
}
