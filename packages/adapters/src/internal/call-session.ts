import type { Session } from '@plankit/core';
import { toolFailure } from '@plankit/core/internal';
import { parseConversationId } from '../sessions/conversation-id.ts';
import { resolveSession, type SessionSource } from '../sessions/resolve-session.ts';
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

/** A session failure as the refused result of one tool call, in plankit's refusal form. */
export function sessionRefusal(error: SessionResolveError): SessionRefusal {
  return toolFailure({
    success: false,
    message: `Tool validation failed: ${error.message}`,
    value: null,
    error,
  });
}

/** `session_unresolved` for a call whose context names no conversation. */
export function noConversation(what: string): SessionResolveError {
  return new SessionResolveError(
    'session_unresolved',
    `The call names no conversation (${what}), so no session serves it; plans are never shared between conversations.`,
  );
}

/**
 * The session of one call for a run keyed explicitly: a `Session` source serves every call;
 * a resolver needs `key`, which is checked (`conversation_id_invalid`) before the resolver
 * sees it. Never throws for what the host passed at run time: failures come back as refusals.
 */
export async function resolveKeyedSession(
  source: SessionSource<ConversationKeyContext>,
  key: unknown,
): Promise<{ ok: true; value: Session } | { ok: false; error: SessionRefusal }> {
  if (typeof source !== 'function') {
    const resolved = await resolveSession(source, { key: '' });
    return resolved.ok ? resolved : { ok: false, error: sessionRefusal(resolved.error) };
  }
  if (key === undefined || key === null || key === '')
    return { ok: false, error: sessionRefusal(noConversation('the run options give no key')) };
  const id = parseConversationId(key, 'key');
  if (!id.ok) return { ok: false, error: sessionRefusal(id.error) };
  const resolved = await resolveSession(source, { key: id.value });
  return resolved.ok ? resolved : { ok: false, error: sessionRefusal(resolved.error) };
}
