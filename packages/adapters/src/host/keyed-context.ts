import type { Result } from '@plankit/core';
import { parseConversationId } from '../sessions/conversation-id.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import { SessionResolveError } from '../sessions/session-resolve-error.ts';

/**
 * The context the OpenAI and Anthropic adapters give a session resolver: the conversation key
 * the host passed with the run (`key`), already checked as a conversation id.
 *
 * @public
 */
export interface ConversationKeyContext {
  /** The conversation key, a valid conversation id (see `isConversationId`). */
  readonly key: string;
}

/**
 * The result of a call refused because its session could not be resolved: shaped like a
 * failed `ToolResult` (`success: false`, `Tool validation failed: ...`), with the
 * `SessionResolveError` (`session_unresolved`, `conversation_id_invalid`, ...) as `error`.
 *
 * @public
 */
export interface SessionRefusal {
  /** Always `false`, as on every failed result. */
  readonly ok: false;
  /** Always `false`: the reference contract's name for `ok`. */
  readonly success: false;
  /** What the model reads: `Tool validation failed: ...`. */
  readonly message: string;
  /** Always `null`. */
  readonly value: null;
  /** Why no session serves the call. */
  readonly error: SessionResolveError;
}

/** `session_unresolved` for a call whose context names no conversation. */
export function noConversation(what: string): SessionResolveError {
  return new SessionResolveError(
    'session_unresolved',
    `The call names no conversation (${what}), so no session serves it; plans are never shared between conversations.`,
  );
}

const UNKEYED: Result<ConversationKeyContext, SessionResolveError> = Object.freeze({
  ok: true,
  value: Object.freeze({ key: '' }),
});

/**
 * The context of a call for a run keyed explicitly (OpenAI, Anthropic, the Claude Agent SDK):
 * a `Session` source needs no key; a resolver needs `key`, which is checked
 * (`conversation_id_invalid`) before the resolver sees it.
 */
export function keyedContext(
  source: SessionSource<ConversationKeyContext>,
  key: unknown,
): Result<ConversationKeyContext, SessionResolveError> {
  if (typeof source !== 'function') return UNKEYED;
  if (key === undefined || key === null || key === '')
    return { ok: false, error: noConversation('the run options give no key') };
  const id = parseConversationId(key, 'key');
  return id.ok ? { ok: true, value: { key: id.value } } : id;
}
