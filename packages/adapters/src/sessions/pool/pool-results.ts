import type { Result } from '@plankit/core';
import type { StoreError } from '../../persistence/stores/store-error.ts';
import { parseConversationId } from '../conversation-id.ts';
import { reasonOf, SessionResolveError } from '../session-resolve-error.ts';

/** `ok` with version 0: what a flush of a conversation that is not live acknowledges. */
export const OK_ZERO: { readonly ok: true; readonly value: 0 } = Object.freeze({
  ok: true as const,
  value: 0 as const,
});

/** `ok` with nothing: one frozen result shared by every admission and close that succeeds. */
export const OK_VOID: Result<void, SessionResolveError> = Object.freeze({
  ok: true,
  value: undefined,
});

/** A pool refusal: a {@link SessionResolveError} naming the conversation and the store's error. */
export function refused(
  code: SessionResolveError['code'],
  message: string,
  id: string | undefined,
  storeError?: StoreError,
): { ok: false; error: SessionResolveError } {
  return {
    ok: false,
    error: new SessionResolveError(code, message, { conversationId: id, storeError }),
  };
}

/** The `pool_closed` refusal of every call after `close`. */
export const closedError = (id: string | undefined): { ok: false; error: SessionResolveError } =>
  refused('pool_closed', 'The session pool is closed.', id);

/** A store failure in the pool's one error family: `session_conflict` or `session_store_failed`. */
function storeRefusal(id: string, error: StoreError): { ok: false; error: SessionResolveError } {
  return error.code === 'conflict'
    ? refused(
        'session_conflict',
        `Conversation ${id} was changed by another process; this copy was dropped. Get it again.`,
        id,
        error,
      )
    : refused(
        'session_store_failed',
        `The store failed to save conversation ${id} (${error.code}): ${reasonOf(error.message)}`,
        id,
        error,
      );
}

/** A flush's outcome in the pool's error family. */
export function inFamily(
  id: string,
  flushed: Result<number, StoreError>,
): Result<number, SessionResolveError> {
  return flushed.ok ? flushed : storeRefusal(id, flushed.error);
}

/**
 * Checks an id as every entry point does: empty or missing names no conversation
 * (`session_unresolved`), anything else follows the conversation id rule.
 */
export function checkId(id: unknown, field: string): Result<string, SessionResolveError> {
  if (id === undefined || id === null || id === '') {
    return refused(
      'session_unresolved',
      `The call's context names no conversation (the ${field} is ${id === '' ? 'empty' : String(id)}), so no session serves it; plans are never shared between conversations.`,
      undefined,
    );
  }
  return parseConversationId(id, field);
}
