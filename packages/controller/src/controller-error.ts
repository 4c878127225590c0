import { PlankitError, type PlankitErrorOptions } from '@plankit/core';

/**
 * Codes of {@link ControllerError}. The set is stable: codes are added, never renamed.
 *
 * Thrown (programmer errors): `argument_invalid`, `definition_invalid`. Returned as
 * `{ ok: false, error }` (expected failures): every other code.
 *
 * @public
 */
export type ControllerErrorCode =
  | 'argument_invalid'
  | 'definition_invalid'
  | 'input_invalid'
  | 'outcome_rejected'
  | 'guard_rejected'
  | 'machine_done'
  | 'machine_frozen'
  | 'machine_not_frozen'
  | 'snapshot_invalid'
  | 'snapshot_version_unknown'
  | 'replay_diverged'
  | 'budget_exceeded'
  | 'reservation_duplicate'
  | 'reservation_unknown'
  | 'reservation_limit'
  | 'price_unknown'
  | 'tool_unknown'
  | 'tool_prerequisite_missing'
  | 'tool_input_invalid'
  | 'tool_failed'
  | 'tool_output_invalid'
  | 'policy_invalid'
  | 'pattern_invalid'
  | 'goal_inactive';

/** Options of {@link ControllerError}. @public */
export interface ControllerErrorOptions extends PlankitErrorOptions {
  /** The machine state the error is about, when there is one. */
  readonly state?: string | undefined;
  /** The cap that refused the call (`budget_exceeded`) or decided it. */
  readonly cap?: string | undefined;
}

/**
 * What every `@plankit/controller` function reports: a stable `code`, the input `field` at
 * fault, and the `state` or `cap` involved. Use {@link ControllerError.isInstance} rather than
 * `instanceof` to test for it.
 *
 * @public
 */
export class ControllerError extends PlankitError<ControllerErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'ControllerError';

  /** The machine state the error is about, when there is one. */
  readonly state: string | undefined;
  /** The cap that refused or decided the call, when there is one. */
  readonly cap: string | undefined;

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - a sentence a person (or a model) can act on
   * @param options - the field, state, cap and cause
   */
  constructor(code: ControllerErrorCode, message: string, options: ControllerErrorOptions = {}) {
    super(code, message, options);
    this.state = options.state;
    this.cap = options.cap;
  }

  /** True for a {@link ControllerError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is ControllerError {
    return PlankitError.hasBrand(value, ControllerError.errorName);
  }
}
