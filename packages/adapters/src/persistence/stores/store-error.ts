import { PlankitError, type PlankitErrorOptions } from '@plankit/core';

/**
 * Codes of {@link StoreError}. The set is stable: codes are added, never renamed.
 *
 * @public
 */
export type StoreErrorCode =
  | 'session_id_invalid'
  | 'not_found'
  | 'conflict'
  | 'event_invalid'
  | 'snapshot_invalid'
  | 'snapshot_version_unknown'
  | 'migration_failed'
  | 'corrupt'
  | 'unreachable'
  | 'busy'
  | 'io'
  | 'closed'
  | 'replay_failed'
  | 'data_type_unknown';

/** Options of {@link StoreError}. @public */
export interface StoreErrorOptions extends PlankitErrorOptions {
  /** The session the call was about, when there was one. */
  readonly sessionId?: string | undefined;
}

/**
 * A session store refused or failed a call. Stores return it in a `Result`, never throw it;
 * the store is left exactly as it was, except where the code says the outcome is unknown
 * (`unreachable` during an append).
 *
 * @public
 */
export class StoreError extends PlankitError<StoreErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'StoreError';

  /** The session the call was about, when there was one. */
  readonly sessionId: string | undefined;

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - what went wrong, naming the field and the rule
   * @param options - the session, field and cause
   */
  constructor(code: StoreErrorCode, message: string, options: StoreErrorOptions = {}) {
    super(code, message, options);
    this.sessionId = options.sessionId;
  }

  /** True for a {@link StoreError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is StoreError {
    return PlankitError.hasBrand(value, StoreError.errorName);
  }
}
