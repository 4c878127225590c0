import type { Session } from '@plankit/core';

// A pooled session's conversation outlives the session: every copy the pool loads is bound to
// one key, so model order and announcements made on one copy hold for the next.
const keys = new WeakMap<Session, object>();

/** Binds a pooled session to its conversation's key, shared by every copy of it. */
export function bindConversationKey(session: Session, key: object): void {
  keys.set(session, key);
}

/** The key model order uses for `session`: its conversation's, or the session itself. */
export function conversationKeyOf(session: Session): object {
  return keys.get(session) ?? session;
}
