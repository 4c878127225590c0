import type {
  Result,
  Session,
  SessionCommitted,
  SessionRolledBack,
  Unsubscribe,
} from '@plankit/core';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';

// The registry lives apart from the pool, so an adapter that only asks "is this a pool's
// resolver?" does not bundle the pool.

/**
 * Hears a change of one conversation: the event and the live session that made it.
 * See `SessionPool.subscribe`.
 *
 * @public
 */
export type ConversationListener = (
  event: SessionCommitted | SessionRolledBack,
  session: Session,
) => void;

/**
 * A pool's resolver, as the adapters' host pipeline sees it: the conversation a context names,
 * and a way to run work holding its session.
 */
export interface PooledConversations<C> {
  /** The conversation id `context` names, checked; or why no session serves it. */
  idOf(context: C): Result<string, SessionResolveError>;
  /** The conversation's model-order key: the same object across its live copies. */
  keyOf(id: string): object;
  /**
   * Runs `fn` holding the session of `id`, as `SessionPool.run` does; it flushes only when
   * `durable` (after its turn, with no retry: a tool call is never run twice).
   */
  hold<T>(
    id: string,
    fn: (session: Session) => Promise<T>,
    durable: boolean,
  ): Promise<Result<T, SessionResolveError>>;
  /** The pool's `SessionPool.subscribe`. */
  subscribe(id: string, listener: ConversationListener): Result<Unsubscribe, SessionResolveError>;
  /** The live session of `id`, if any; loads nothing and touches nothing. */
  peek(id: string): Session | undefined;
}

const pooledResolvers = new WeakMap<object, PooledConversations<never>>();

/** Marks `resolver` as serving the pool's conversations (see `pooledConversations`). */
export function registerPooledResolver<C>(
  resolver: object,
  conversations: PooledConversations<C>,
): void {
  pooledResolvers.set(resolver, conversations as PooledConversations<never>);
}

/** The pool behind `source` when it is a pool's resolver, else `undefined`. */
export function pooledConversations<C>(source: unknown): PooledConversations<C> | undefined {
  return typeof source === 'function'
    ? (pooledResolvers.get(source) as PooledConversations<C> | undefined)
    : undefined;
}
