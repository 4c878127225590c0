import { StoreError } from './store-error.ts';

/** The session id rule every store applies: 1-128 characters, safe as a folder name. */
const SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9_.:-]{0,126}[A-Za-z0-9])?$/;

const RULE =
  'must be 1-128 characters: ASCII letters, digits and _ . : -, starting and ending with a letter or digit';

/** Shows a hostile value briefly: an id can be 10 KB or hold control characters. */
export function preview(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
  return JSON.stringify(shown);
}

/**
 * True when `value` is a session id every store accepts: 1-128 characters, ASCII letters,
 * digits and `_ . : -`, starting and ending with a letter or digit.
 *
 * @public
 */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}

/** The `session_id_invalid` error for `value`, or `undefined` when it is a valid id. */
export function sessionIdError(value: unknown, field = 'sessionId'): StoreError | undefined {
  if (isSessionId(value)) return undefined;
  const length = typeof value === 'string' ? ` (${value.length} characters)` : '';
  return new StoreError('session_id_invalid', `${field} ${RULE}; got ${preview(value)}${length}.`, {
    field,
  });
}
