import type { Result } from '@plankit/core';
import { isSessionId, sessionIdError } from '../persistence/stores/session-id.ts';
import { SessionResolveError } from './session-resolve-error.ts';

const UNESCAPED = /[\u007f-\u009f\u2028\u2029]/g;
const escapeCode = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * True when `value` is a conversation id the pool accepts: the stores' session id rule, a
 * string of 1-256 UTF-16 code units with no control character (C0, DEL, C1), no line or
 * paragraph separator, no lone surrogate, and no `.` or `..` path segment. Any id a host
 * generates passes (nanoid, UUID, base64, `conv_…`, `a@b.c`, `org/chat`), as it is: no need
 * to hash it first. Each store maps it to a key of its own.
 *
 * @public
 */
export function isConversationId(value: unknown): value is string {
  return isSessionId(value);
}

/**
 * Checks a conversation id before it reaches a store path or a query.
 *
 * @example
 * ```ts
 * const id = parseConversationId(config.configurable?.thread_id, 'thread_id');
 * if (!id.ok) return id; // conversation_id_invalid, naming the rule
 * ```
 * @param value - the id, as the host gave it
 * @param field - how the message names it; `conversationId` by default
 * @returns the id, or `conversation_id_invalid` naming the field and the rule, with at most 40
 *   characters of the value, escaped
 * @public
 */
export function parseConversationId(
  value: unknown,
  field = 'conversationId',
): Result<string, SessionResolveError> {
  // One rule, the stores' own: what the pool accepts, every store can keep.
  const problem = sessionIdError(value, field);
  if (problem === undefined) return { ok: true, value: value as string };
  // The store's preview is JSON, which leaves DEL, C1 controls and line separators raw.
  const message = problem.message.replace(UNESCAPED, escapeCode);
  return {
    ok: false,
    error: new SessionResolveError('conversation_id_invalid', message, { field }),
  };
}
