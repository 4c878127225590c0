import { PlankitError, type PlankitErrorOptions } from './plankit-error.ts';

/** Codes of {@link SessionError}. @public */
export type SessionErrorCode =
  | 'reducer_failed'
  | 'slice_unregistered'
  | 'snapshot_invalid'
  | 'snapshot_version_unknown'
  | 'value_invalid';

/** Options of {@link SessionError}. @public */
export interface SessionErrorOptions extends PlankitErrorOptions {
  /** The session the error happened in. */
  readonly sessionId?: string | undefined;
}

/**
 * A session refused a change or a snapshot. The session is left exactly as it was.
 *
 * @public
 */
export class SessionError extends PlankitError<SessionErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'SessionError';

  /** The session the error happened in, when known. */
  readonly sessionId: string | undefined;

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - what went wrong, naming the slice or reducer
   * @param options - the session, field and cause
   */
  constructor(code: SessionErrorCode, message: string, options: SessionErrorOptions = {}) {
    super(code, message, options);
    this.sessionId = options.sessionId;
  }

  /** True for a {@link SessionError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is SessionError {
    return PlankitError.hasBrand(value, SessionError.errorName);
  }
}
