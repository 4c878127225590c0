import { PlankitError, type PlankitErrorOptions } from '@plankit/core';

/**
 * Codes of {@link PlankitEvalError}. Stable: codes are added, never renamed.
 *
 * - `config_invalid`: `defineEval` or `runEval` was given a bad config (thrown).
 * - `run_exists`: the output folder already holds a run and `resume` was not asked for.
 * - `resume_mismatch`: `resume` found a run of a different config (arms, tasks, k or seed).
 * - `store_failed`: the results log could not be read or appended.
 * - `config_load_failed`: the CLI could not find or load the config file, or refused it: TypeScript that
 *   Node runs as CommonJS, or a config that loaded a second copy of a plankit package.
 * - `log_invalid`: `resume` found a results log record that fails its schema, belongs to another
 *   run, repeats a trial, or names an unknown arm or task; the message names the line.
 *
 * @public
 */
export type PlankitEvalErrorCode =
  | 'config_invalid'
  | 'run_exists'
  | 'resume_mismatch'
  | 'store_failed'
  | 'config_load_failed'
  | 'log_invalid';

/**
 * What every `@plankit/eval` function throws: a stable `code` and the `field` at fault. Use
 * {@link PlankitEvalError.isInstance} rather than `instanceof`.
 *
 * @public
 */
export class PlankitEvalError extends PlankitError<PlankitEvalErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'PlankitEvalError';

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - a sentence a person can act on
   * @param options - the field at fault and the cause
   */
  constructor(code: PlankitEvalErrorCode, message: string, options: PlankitErrorOptions = {}) {
    super(code, message, options);
  }

  /** True for an {@link PlankitEvalError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is PlankitEvalError {
    return PlankitError.hasBrand(value, PlankitEvalError.errorName);
  }
}
