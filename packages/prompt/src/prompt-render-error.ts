import { PlankitError, type PlankitErrorOptions } from '@plankit/core';

/** Codes of {@link PromptRenderError}. @public */
export type PromptRenderCode =
  | 'params_missing'
  | 'placeholder_missing'
  | 'placeholder_invalid'
  | 'section_invalid'
  | 'options_invalid';

/**
 * A section or prompt could not be built or rendered: missing params, a placeholder with no
 * value, or an invalid definition. The message names the section and the field.
 *
 * @public
 */
export class PromptRenderError extends PlankitError<PromptRenderCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'PromptRenderError';

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - what is wrong, naming the section and field
   * @param options - the field at fault and the cause
   */
  constructor(code: PromptRenderCode, message: string, options: PlankitErrorOptions = {}) {
    super(code, message, options);
  }

  /** True for a {@link PromptRenderError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is PromptRenderError {
    return PlankitError.hasBrand(value, PromptRenderError.errorName);
  }
}
