import { type Err, type Result, type Session, snapshotFromJSON } from '@plankit/core';
import { type DataTypes, replay, short } from './replay-rules.ts';
import type { LoadedSession, SessionStore, StoreIssue } from './session-store.ts';
import { StoreError } from './store-error.ts';

/** A failure of `attachStore` for session `sessionId`. */
export function failure(
  code: StoreError['code'],
  sessionId: string,
  message: string,
  cause?: unknown,
): Err<StoreError> {
  return { ok: false, error: new StoreError(code, message, { sessionId, cause }) };
}

export function ignoredSnapshot(sessionId: string, reason: string): StoreIssue {
  return {
    code: 'snapshot_ignored',
    message: `Ignored session ${sessionId}'s snapshot (${reason}); the session was rebuilt from its log.`,
  };
}

/** Restores a stored snapshot into the session; why it does not fit, if it does not. */
function restoreSnapshot(session: Session, data: unknown): string | undefined {
  const snapshot = snapshotFromJSON(data, session);
  if (!snapshot.ok) return snapshot.error.message;
  // Rollback restores any session's state: a stored one of another id was copied in by hand.
  if (snapshot.value.sessionId !== session.sessionId) {
    return `it is the state of session ${short(snapshot.value.sessionId)}`;
  }
  const restored = session.rollback(snapshot.value);
  return restored.ok ? undefined : restored.error.message;
}

/** Restores `loaded` into the fresh session: its snapshot if it fits, then its events. */
export async function restore(
  session: Session,
  store: SessionStore,
  first: LoadedSession,
  types: DataTypes,
  issues: StoreIssue[],
): Promise<Result<number, StoreError>> {
  let loaded = first;
  if (loaded.snapshot !== null) {
    const problem = restoreSnapshot(session, loaded.snapshot.data);
    if (problem !== undefined) {
      issues.push(ignoredSnapshot(session.sessionId, problem));
      const all = await store.load(session.sessionId, { snapshot: false });
      if (!all.ok) return all;
      loaded = all.value;
      for (const issue of loaded.issues)
        if (!issues.some((known) => known.code === issue.code)) issues.push(issue);
    }
  }
  for (const event of loaded.events) {
    const problem = replay(session, event, types);
    if (problem !== undefined) {
      return failure(
        'replay_failed',
        session.sessionId,
        `Event ${event.sequence} of session ${session.sessionId} cannot be replayed: ${short(problem)}.`,
      );
    }
  }
  return { ok: true, value: loaded.version };
}
