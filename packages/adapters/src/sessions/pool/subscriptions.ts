import type { Session, SessionCommitted, SessionRolledBack, Unsubscribe } from '@plankit/core';
import type { ConversationListener } from '../../host/pooled-conversations.ts';
import type { LiveSession } from './live-session.ts';

/** Wires `listener` to the bus of `live`, hearing only its conversation's changes. */
function wire(live: LiveSession, listener: ConversationListener): void {
  const { session, id } = live;
  const hear = (event: SessionCommitted | SessionRolledBack): void => {
    // A shared bus carries every conversation's events.
    if (event.sessionId === id) listener(event, session);
  };
  const stops = [
    session.bus.subscribe('SessionCommitted', hear),
    session.bus.subscribe('SessionRolledBack', hear),
  ];
  live.wired.set(listener, () => {
    for (const stop of stops) stop();
  });
}

/** Ends every subscription wired to the bus of `live` (it is leaving the pool). */
export function unwire(live: LiveSession): void {
  for (const stop of live.wired.values()) stop();
  live.wired.clear();
}

/**
 * The subscriptions of each conversation, which follow it across its live copies: each is
 * wired to the copy live now, and to every copy loaded later.
 */
export class Subscriptions {
  readonly #listeners = new Map<string, Set<ConversationListener>>();

  /** True when conversation `id` has a subscription. */
  has(id: string): boolean {
    return this.#listeners.has(id);
  }

  /**
   * Tells the conversation's subscribers that `session`, a copy loaded after another process
   * changed the conversation, is its state now. Not a commit of this process, so no bus hears
   * it (an attachment would store it again): the listeners alone, with a `SessionRolledBack`
   * event restoring the copy's own revision (what the store holds replaced what was live).
   */
  tell(id: string, session: Session, at: number): void {
    const { revision } = session.snapshot();
    const event: SessionRolledBack = Object.freeze({
      type: 'SessionRolledBack',
      sessionId: session.sessionId,
      revision,
      restoredRevision: revision,
      at,
    });
    for (const listener of [...(this.#listeners.get(id) ?? [])]) listener(event, session);
  }

  /** Wires the conversation's subscriptions to `live`, a copy just loaded. */
  wireAll(live: LiveSession): void {
    for (const listener of this.#listeners.get(live.id) ?? []) wire(live, listener);
  }

  /**
   * Subscribes `listener` to conversation `id` (a checked id).
   *
   * @param current - the conversation's live copy now, if any (asked again at unsubscribe)
   * @returns a function that ends the subscription (idempotent)
   */
  add(
    id: string,
    listener: ConversationListener,
    current: (id: string) => LiveSession | undefined,
  ): Unsubscribe {
    let listeners = this.#listeners.get(id);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(id, listeners);
    }
    let ended = false;
    // Each subscription is its own, as on the bus: a function subscribed twice is heard twice,
    // and each handle ends its own. An evicted copy stays wired until its detach, so the
    // subscription itself checks that it has not ended.
    const subscription = (event: SessionCommitted | SessionRolledBack, session: Session): void => {
      if (!ended) listener(event, session);
    };
    listeners.add(subscription);
    const live = current(id);
    if (live !== undefined) wire(live, subscription);
    return (): void => {
      if (ended) return;
      ended = true;
      const set = this.#listeners.get(id);
      set?.delete(subscription);
      if (set?.size === 0) this.#listeners.delete(id);
      const now = current(id);
      now?.wired.get(subscription)?.();
      now?.wired.delete(subscription);
    };
  }
}
