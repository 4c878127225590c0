import { StoreError } from '../stores/store-error.ts';

// Errors of the connection rather than the statement: the server is down, unreachable,
// shutting down, or refusing connections.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /connection .*(closed|ended)/i,
];

/** The SQLSTATE of a `pg` error (five characters), or `undefined`. */
export function sqlState(error: unknown): string | undefined {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === 'string' && /^[0-9A-Z]{5}$/.test(value) ? value : undefined;
}

/** True when `error` says the server could not be reached or the connection broke. */
export function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code))) {
    return true;
  }
  if (typeof code === 'string' && code.startsWith('08')) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnreachable);
  const message = error instanceof Error ? error.message : '';
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(message));
}

/** The time limits a store sends its statements with, named in its timeout errors. */
export interface StatementLimits {
  readonly statementTimeoutMs: number;
  readonly lockTimeoutMs: number;
  /** How long the client waits for any answer before it gives up on the connection. */
  readonly answerTimeoutMs: number;
}

// The server canceled the statement: it ran past statement_timeout (or was canceled by hand).
const CANCELED = '57014';
// A lock was not granted within lock_timeout.
const LOCK_NOT_AVAILABLE = '55P03';
// What `pg` rejects with when its client-side query_timeout passes.
const NO_ANSWER = /^Query read timeout$/;

/**
 * A `pg` failure as a result: `busy` for a statement the server canceled at one of the store's
 * time limits (nothing was written), `unreachable` for connection trouble and a server that
 * did not answer in time, `io` for the rest.
 */
export function pgFailure(
  error: unknown,
  action: string,
  sessionId: string | undefined,
  limits?: StatementLimits,
): { readonly ok: false; readonly error: StoreError } {
  const reason = error instanceof Error && error.message !== '' ? error.message : String(error);
  const state = sqlState(error);
  const detail = state === undefined ? reason : `${reason} (SQLSTATE ${state})`;
  const what = sessionId === undefined ? '' : ` session ${sessionId}`;
  if (state === LOCK_NOT_AVAILABLE || state === CANCELED) {
    const limit =
      limits === undefined
        ? ''
        : state === LOCK_NOT_AVAILABLE
          ? ` within lockTimeoutMs (${limits.lockTimeoutMs} ms)`
          : ` within statementTimeoutMs (${limits.statementTimeoutMs} ms)`;
    const why =
      state === LOCK_NOT_AVAILABLE
        ? `a lock held by another connection was not released${limit}`
        : `the statement did not finish${limit} and was canceled`;
    return {
      ok: false,
      error: new StoreError(
        'busy',
        `PostgresStore could not ${action}${what}: ${why}, so nothing was written; try again shortly: ${detail}`,
        { sessionId, cause: error },
      ),
    };
  }
  if (error instanceof Error && NO_ANSWER.test(error.message)) {
    const limit = limits === undefined ? '' : ` within ${limits.answerTimeoutMs} ms`;
    return {
      ok: false,
      error: new StoreError(
        'unreachable',
        `PostgresStore could not ${action}${what}: the server did not answer${limit} (statementTimeoutMs plus 5,000 ms), so the connection was dropped: ${detail}`,
        { sessionId, cause: error },
      ),
    };
  }
  if (isUnreachable(error)) {
    return {
      ok: false,
      error: new StoreError(
        'unreachable',
        `PostgresStore could not ${action}${what}: the server is unreachable: ${detail}`,
        { sessionId, cause: error },
      ),
    };
  }
  return {
    ok: false,
    error: new StoreError('io', `PostgresStore could not ${action}${what}: ${detail}`, {
      sessionId,
      cause: error,
    }),
  };
}
