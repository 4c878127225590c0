import type { Session } from '@plankit/core';
import { StoreError } from './store-error.ts';

// Two attachments of one session would append every change twice.
const attached = new WeakSet<Session>();
// The attached session of each id, per bus: an attachment tells its session's commits from
// others' by id, so a bus carries at most one attached session of an id.
const attachedIds = new WeakMap<object, Map<string, Session>>();

/** True while `session` is attached to a store. */
export function isAttached(session: Session): boolean {
  return attached.has(session);
}

/** Takes `session`'s id on its bus, or the `busy` error when another session holds it. */
export function holdId(session: Session): StoreError | undefined {
  const { bus, sessionId } = session;
  let ids = attachedIds.get(bus);
  if (ids === undefined) {
    ids = new Map();
    attachedIds.set(bus, ids);
  }
  if (ids.has(sessionId)) {
    return new StoreError(
      'busy',
      `Another live Session with id ${sessionId} is attached to a store on this bus; each would log the other's commits. Detach it (or use one bus per session) before attaching this one.`,
      { sessionId, field: 'session' },
    );
  }
  ids.set(sessionId, session);
  attached.add(session);
  return undefined;
}

/** Lets go of what {@link holdId} took. */
export function releaseId(session: Session): void {
  attached.delete(session);
  const ids = attachedIds.get(session.bus);
  if (ids?.get(session.sessionId) === session) ids.delete(session.sessionId);
}
