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

/** A `pg` failure as a result: `unreachable` for connection trouble, `io` for the rest. */
export function pgFailure(
  error: unknown,
  action: string,
  sessionId: string | undefined,
): { readonly ok: false; readonly error: StoreError } {
  const reason = error instanceof Error && error.message !== '' ? error.message : String(error);
  const state = sqlState(error);
  const detail = state === undefined ? reason : `${reason} (SQLSTATE ${state})`;
  const what = sessionId === undefined ? '' : ` session ${sessionId}`;
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
