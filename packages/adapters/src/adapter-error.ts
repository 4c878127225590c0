import { PlankitError, type PlankitErrorOptions } from '@plankit/core';

/**
 * Codes of {@link AdapterError}: `schema_unsupported` and `tools_invalid` (converting tools),
 * `state_invalid` (`readPlanState` given values that are not a planning graph's state).
 *
 * @public
 */
export type AdapterErrorCode = 'schema_unsupported' | 'tools_invalid' | 'state_invalid';

/**
 * A tool cannot be expressed in a host's format (for example a schema keyword OpenAI strict
 * mode cannot represent), or a tool list is unusable. Thrown when tools are converted: it is a
 * programmer error, caught before any model sees the tools.
 *
 * @public
 */
export class AdapterError extends PlankitError<AdapterErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'AdapterError';

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - what cannot be expressed, naming the tool, the path and the keyword
   * @param options - the field at fault and the cause
   */
  constructor(code: AdapterErrorCode, message: string, options: PlankitErrorOptions = {}) {
    super(code, message, options);
  }

  /** True for an {@link AdapterError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is AdapterError {
    return PlankitError.hasBrand(value, AdapterError.errorName);
  }
}
