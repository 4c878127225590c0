import { clipText } from '@plankit/core/internal-unstable';
import { StoreError } from './store-error.ts';

/** The longest session id, in UTF-16 code units (a JavaScript string's `length`). */
export const MAX_SESSION_ID = 256;

/**
 * C0 controls, DEL, C1 controls, the line and paragraph separators (they end a line in a log
 * or a model's context like `\n` does), and lone surrogates (no store can encode them).
 */
const UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}]/u;

/** A `.` or `..` path segment: refused so an id never reads as a path that climbs out. */
const DOT_SEGMENT = /(?:^|[/\\])\.{1,2}(?:$|[/\\])/;

const RULE = `must be 1-${MAX_SESSION_ID} characters with no control character, line separator or lone surrogate, and no . or .. path segment`;

/** Shows a hostile value briefly: an id can be 10 KB or hold control characters. */
export function preview(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  // At most 40 characters, ending in `...` when cut (a surrogate pair is never split).
  return JSON.stringify(clipText(value, 40));
}

/**
 * True when `value` is a session id every store accepts: a string of 1-256 UTF-16 code units
 * (a JavaScript `length` of at most 256) with no control character (C0, DEL, C1), no line or
 * paragraph separator (U+2028, U+2029), no lone surrogate, and no `.` or `..` path segment
 * (between `/` or `\` separators). Anything a host generates passes: nanoid, UUID, ULID,
 * base64 and base64url, `conv_…`, emails, `org/chat`. Each store maps the id to a key it can
 * keep; `FileStore` encodes it into a folder name. Hosts check an id with its public name,
 * `isConversationId` (`@plankit/adapters/sessions`): a conversation's id is its session's id.
 */
export function isSessionId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_SESSION_ID &&
    !UNSAFE.test(value) &&
    !DOT_SEGMENT.test(value)
  );
}

/** The `session_id_invalid` error for `value`, or `undefined` when it is a valid id. */
export function sessionIdError(value: unknown, field = 'sessionId'): StoreError | undefined {
  if (isSessionId(value)) return undefined;
  const length = typeof value === 'string' ? ` (${value.length} characters)` : '';
  return new StoreError('session_id_invalid', `${field} ${RULE}; got ${preview(value)}${length}.`, {
    field,
  });
}
