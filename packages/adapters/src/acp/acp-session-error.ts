import { PlankitError, type PlankitErrorOptions } from '@plankit/core';
import { clipText, escapeControl } from '@plankit/core/internal-unstable';

/**
 * Codes of {@link ACPSessionError}: `session_not_found`, a session id the agent never opened.
 * The set is stable: codes are added, never renamed.
 *
 * @public
 */
export type ACPSessionErrorCode = 'session_not_found';

/** Options of {@link ACPSessionError}. @public */
export interface ACPSessionErrorOptions extends PlankitErrorOptions {
  /** The session id the request named, as it came. */
  readonly sessionId: string;
}

/**
 * A request named an ACP session the agent does not have: `session/new` never returned its id
 * and `session/load` found nothing saved under it. {@link toACPError} answers it as ACP
 * says, `-32002` (Resource not found) with the id in `data.sessionId`.
 *
 * @public
 */
export class ACPSessionError extends PlankitError<ACPSessionErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'ACPSessionError';
  /** The session id the request named, as it came. */
  readonly sessionId: string;

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - which session, and what to do instead
   * @param options - the session id, the field and the cause
   */
  constructor(code: ACPSessionErrorCode, message: string, options: ACPSessionErrorOptions) {
    super(code, message, { field: options.field ?? 'sessionId', cause: options.cause });
    this.sessionId = options.sessionId;
  }

  /** True for an {@link ACPSessionError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is ACPSessionError {
    return PlankitError.hasBrand(value, ACPSessionError.errorName);
  }
}

/** The longest part of a session id a message quotes: a pool's ids are at most 256 long. */
const QUOTED_ID = 256;

/**
 * The refusal of a request naming session `sessionId`, which this agent never opened. The id
 * is clipped and escaped, so the message stays one line, under 2,000 characters.
 */
export function sessionNotFound(sessionId: string): ACPSessionError {
  const quoted = escapeControl(JSON.stringify(clipText(sessionId, QUOTED_ID)));
  return new ACPSessionError(
    'session_not_found',
    `sessionId ${quoted} names no session of this agent: session/new did not create it and session/load found nothing saved under it. Open a session with session/new (or session/load one the agent saved) and use the id it answers with.`,
    { sessionId },
  );
}
