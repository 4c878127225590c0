import {
  type Result,
  Session,
  type SessionCommitted,
  type SessionRolledBack,
  type Unsubscribe,
} from '@plankit/core';
import { resolveSession, type SessionSource } from '../sessions/resolve-session.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { conversationKeyOf } from './conversation-key.ts';
import {
  type ConversationListener,
  pooledConversations,
  registerPooledResolver,
} from './pooled-conversations.ts';

/**
 * The conversation a host call belongs to, as every adapter sees it: a model-order key that
 * outlives the session's copies, a way to run work holding its session, and its changes.
 */
export interface Conversation {
  /** Model order and announcements are kept under this key. */
  readonly key: object;
  /**
   * Runs `fn` on the conversation's session, one call at a time; a pool's session is held
   * (not evictable) meanwhile and loaded first if it is not live. With `durable`, a pool's
   * result waits until the store has acknowledged every change made so far (the turn is
   * released first, so the next call runs meanwhile); a failed write is the result instead.
   */
  hold<T>(
    fn: (session: Session) => Promise<T>,
    durable?: boolean,
  ): Promise<Result<T, SessionResolveError>>;
  /** Hears every commit and rollback of the conversation, across a pool's reloads. */
  subscribe(listener: ConversationListener): Unsubscribe;
  /** The conversation's session when it is live now (nothing is loaded), else `undefined`. */
  peek(): Session | undefined;
}

/** Runs `work` on `session` after the work queued on it before: calls on one session never interleave. */
export function oneAtATime<T>(session: Session, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(session) ?? Promise.resolve();
  const next = previous.then(work);
  queues.set(
    session,
    next.catch(() => undefined),
  );
  return next;
}

// Hosts such as the AI SDK and LangGraph run a step's tool calls concurrently, but planning
// calls depend on order (a setup must commit before the mark after it is checked).
const queues = new WeakMap<Session, Promise<unknown>>();

/** The conversation of one fixed `Session`: the session is its only copy. */
export function sessionConversation(session: Session): Conversation {
  return {
    key: conversationKeyOf(session),
    hold: async (fn) => ({ ok: true, value: await oneAtATime(session, () => fn(session)) }),
    subscribe: (listener) => {
      const hear = (event: SessionCommitted | SessionRolledBack): void => {
        if (event.sessionId === session.sessionId) listener(event, session);
      };
      const stops = [
        session.bus.subscribe('SessionCommitted', hear),
        session.bus.subscribe('SessionRolledBack', hear),
      ];
      return () => {
        for (const stop of stops) stop();
      };
    },
    peek: () => session,
  };
}

/**
 * The conversation of one host call. A pool's resolver names it without loading anything
 * (the session is loaded, and held, only when the call's turn comes); a `Session` is its own
 * conversation; any other resolver is called now and its session is the conversation.
 */
export function conversationOf<C>(
  source: SessionSource<C>,
  context: C,
): Result<Conversation, SessionResolveError> | Promise<Result<Conversation, SessionResolveError>> {
  if (source instanceof Session) return { ok: true, value: sessionConversation(source) };
  const pooled = pooledConversations<C>(source);
  if (pooled === undefined) {
    return resolveSession(source, context).then((resolved) =>
      resolved.ok ? { ok: true, value: sessionConversation(resolved.value) } : resolved,
    );
  }
  const id = pooled.idOf(context);
  if (!id.ok) return id;
  const conversation: Conversation = {
    key: pooled.keyOf(id.value),
    hold: (fn, durable) => pooled.hold(id.value, fn, durable === true),
    subscribe: (listener) => {
      const subscribed = pooled.subscribe(id.value, listener);
      // The id was checked by idOf, so the subscription cannot be refused.
      return subscribed.ok ? subscribed.value : () => {};
    },
    peek: () => pooled.peek(id.value),
  };
  return { ok: true, value: conversation };
}

/**
 * `source` seen through another context: a resolver of `C` that maps each context to the one
 * `source` takes, or refuses it. A pool's resolver stays one (the adapters still hold its
 * sessions per call); a `Session` stays itself.
 */
export function withContext<C, D>(
  source: SessionSource<D>,
  map: (context: C) => Result<D, SessionResolveError>,
): SessionSource<C> {
  if (source instanceof Session) return source;
  const resolve = (context: C): Session | Promise<Session> => {
    const mapped = map(context);
    if (!mapped.ok) throw mapped.error;
    return source(mapped.value);
  };
  const pooled = pooledConversations<D>(source);
  if (pooled !== undefined) {
    registerPooledResolver<C>(resolve, {
      ...pooled,
      idOf: (context) => {
        const mapped = map(context);
        return mapped.ok ? pooled.idOf(mapped.value) : mapped;
      },
    });
  }
  return resolve;
}
