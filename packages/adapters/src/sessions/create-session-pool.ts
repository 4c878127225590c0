import { type Result, registerPlanningReducers, Session, type Unsubscribe } from '@plankit/core';
import {
  checkOptionKeys,
  clipText,
  invalidArgument,
  isRecord,
  plural,
} from '@plankit/core/internal-unstable';
import { bindConversationKey } from '../host/conversation-key.ts';
import {
  type ConversationListener,
  type PooledConversations,
  registerPooledResolver,
} from '../host/pooled-conversations.ts';
import { attachStore, giveUpAttaching } from '../persistence/stores/attach-store.ts';
import type { SessionAttachment } from '../persistence/stores/session-attachment.ts';
import type { StoreCommit } from '../persistence/stores/session-store.ts';
import type { StoreError } from '../persistence/stores/store-error.ts';
import { Admission } from './pool/admission.ts';
import { type LiveSession, type Loading, releaseUse, takeTurn } from './pool/live-session.ts';
import { LiveSessions } from './pool/live-sessions.ts';
import { ModelOrderKeys } from './pool/model-order.ts';
import { checkId, closedError, inFamily, OK_VOID, refused } from './pool/pool-results.ts';
import { publishPoolEvent } from './pool/publish-pool-event.ts';
import {
  type CheckedPoolOptions,
  checkPoolOptions,
  type SessionPoolOptions,
  timeout,
} from './pool/session-pool-options.ts';
import { StoreWatch } from './pool/store-watch.ts';
import { Subscriptions } from './pool/subscriptions.ts';
import { TIMED_OUT, withinTime } from './pool/within-time.ts';
import { reasonOf, SessionResolveError } from './session-resolve-error.ts';

/** What a pool is doing now and has done, for a server's metrics: see {@link SessionPool.stats}. @public */
export interface SessionPoolStats {
  /** Live sessions (at most `max`). */
  readonly live: number;
  /** Live sessions held by a run or a tool call: not evictable. */
  readonly held: number;
  /** Conversations admitted and being loaded from the store. */
  readonly loading: number;
  /** Requests waiting for a slot. */
  readonly waiting: number;
  /** Store loads since the pool was created: one per admission. */
  readonly loads: number;
  /** Sessions evicted since the pool was created. */
  readonly evictions: number;
}

/**
 * One live session per conversation id, loaded from and saved to a {@link @plankit/adapters/stores!SessionStore}. See
 * {@link createSessionPool}.
 *
 * @public
 */
export interface SessionPool {
  /** The number of live sessions. */
  readonly size: number;
  /**
   * The live session of conversation `id`, loaded (or created) and attached on a miss.
   * Concurrent calls for one id share one load and get the same `Session`. The session is not
   * held: it may be evicted as soon as another conversation needs its slot, and an evicted
   * session stays attached until the current macrotask ends, so changes made before awaiting
   * I/O are saved; use {@link SessionPool.run} for work that waits for I/O before changing it.
   *
   * @returns the session; or `session_unresolved` (an empty id), `conversation_id_invalid`
   *   (the store is not called), `pool_full`, `session_load_failed`, `pool_closed`
   */
  get(id: string): Promise<Result<Session, SessionResolveError>>;
  /**
   * Runs `fn` on the session of `id`, holding it (it cannot be evicted) meanwhile, then flushes:
   * resolves `ok` only once every change `fn` made is acknowledged by the store. Runs and tool
   * calls of one conversation take turns; those of different conversations do not, so `fn`
   * calls tools on the `session` it is given: a `run` or an adapter's tool call of the same
   * conversation started from inside `fn` waits for `fn`'s turn to end, which never comes.
   * After a `conflict` with another process, when none of `fn`'s changes was saved, reloads
   * and runs `fn` again (up to `retries` times), so `fn` must change nothing but the session.
   *
   * @returns what `fn` returned; or `session_conflict`, `session_store_failed`, and the
   *   failures of {@link SessionPool.get}
   * @throws whatever `fn` throws (a programmer error)
   */
  run<T>(
    id: string,
    fn: (session: Session) => T | Promise<T>,
  ): Promise<Result<Awaited<T>, SessionResolveError>>;
  /**
   * Waits until every change made so far to the live session of `id` (or to its copy being
   * evicted) is acknowledged. Call it right after the change: a copy dropped earlier after a
   * failed write (reported to `onError`) lost its unsaved changes, and is not live any more.
   *
   * @returns the acknowledged version (0 when `id` is not live, which acknowledges nothing);
   *   or `session_conflict` (the copy was stale and has been dropped: get it again) or
   *   `session_store_failed`, with the store's error as `storeError`; or the id's refusal as
   *   in {@link SessionPool.get}
   */
  flush(id: string): Promise<Result<number, SessionResolveError>>;
  /**
   * Evicts the session of `id` now (after the runs and tool calls holding it end): flushes,
   * detaches and disposes it.
   *
   * @returns the flush's outcome, as {@link SessionPool.flush}; `ok` with 0 when `id` is not live
   */
  evict(id: string): Promise<Result<number, SessionResolveError>>;
  /** True when conversation `id` has a live session. */
  has(id: string): boolean;
  /** What the pool is doing now (live, held, loading, waiting) and has done (loads, evictions). */
  stats(): SessionPoolStats;
  /**
   * Calls `listener` for every commit and rollback of conversation `id`, whichever live copy
   * makes it: the subscription follows the conversation across evictions and reloads (a copy
   * loaded later is followed from its load on). Loading a copy is not a change.
   *
   * @returns a function that ends the subscription (idempotent); or the id's refusal as in
   *   {@link SessionPool.get}
   * @throws PlankitError `argument_invalid` when `listener` is not a function
   */
  subscribe(id: string, listener: ConversationListener): Result<Unsubscribe, SessionResolveError>;
  /**
   * A {@link SessionSource} resolver for the adapters: `contextToId(context)` names the
   * conversation. Every plankit adapter recognises a pool's resolver and runs each tool call
   * holding the conversation's session, after the call's turn in model order has come, so a
   * step's calls never land on two copies. Called directly, a live conversation's session comes
   * back synchronously (a hit allocates no promise); otherwise a promise of it, after the load.
   * It throws a {@link SessionResolveError} (synchronously when the context names no
   * conversation: `undefined`, `null`, `''`, as `session_unresolved`; else the promise rejects
   * with the failures of {@link SessionPool.get}), which `resolveSession` returns as a result.
   */
  resolver<C>(
    contextToId: (context: C) => string | null | undefined,
  ): (context: C) => Session | Promise<Session>;
  /**
   * Refuses later calls and waiting requests (`pool_closed`), waits for loads and runs in
   * progress, then flushes, detaches and disposes every live session. Does not close the store.
   * Waits at most `options.timeoutMs` (30,000 ms by default), so a run or a store that never
   * answers cannot hold a shutdown forever; what was not finished by then is abandoned and
   * named. Only the first call's options count: later calls share its outcome.
   *
   * @returns `ok` when every flush succeeded; `pool_close_timed_out` naming the abandoned
   *   conversations (also in `abandoned`) when the time ran out; else the first failure (all
   *   are reported to `onError`)
   * @throws PlankitError `argument_invalid` for bad options
   */
  close(options?: ClosePoolOptions): Promise<Result<void, SessionResolveError>>;
}

/** Options of {@link SessionPool.close}. @public */
export interface ClosePoolOptions {
  /**
   * How long close waits for loads, runs and flushes in progress, in ms: an integer from 0 to
   * 2,147,483,647; 30,000 by default.
   */
  readonly timeoutMs?: number | undefined;
}

const CLOSE_KEYS: ReadonlySet<string> = new Set(['timeoutMs']);
// The ids a timed-out close names in its message; `abandoned` has them all.
const NAMED_ABANDONED = 1000;

class Pool implements SessionPool {
  readonly #options: CheckedPoolOptions;
  readonly #lives: LiveSessions;
  readonly #admission: Admission;
  readonly #keys: ModelOrderKeys;
  readonly #subscriptions = new Subscriptions();
  readonly #watch: StoreWatch;
  readonly #loading = new Map<string, Loading>();
  // Runs and tool calls in progress, with their conversation's id.
  readonly #runs = new Map<Promise<unknown>, string>();
  #loads = 0;
  #closing: Promise<Result<void, SessionResolveError>> | undefined;

  constructor(options: CheckedPoolOptions) {
    this.#options = options;
    this.#lives = new LiveSessions(() => this.#admission.admitWaiting());
    this.#admission = new Admission(options, {
      live: () => this.#lives.size,
      evictIdle: () => this.#lives.evictIdle(),
    });
    this.#watch = new StoreWatch(
      options.store,
      (commit) => this.#heard(commit),
      (error) => options.onError(error),
    );
    this.#keys = new ModelOrderKeys({
      max: options.max,
      loading: () => this.#loading.size,
      inUse: (id) => this.#lives.has(id) || this.#loading.has(id),
    });
  }

  get size(): number {
    return this.#lives.size;
  }

  has(id: string): boolean {
    return this.#lives.has(id);
  }

  stats(): SessionPoolStats {
    return Object.freeze({
      live: this.#lives.size,
      held: this.#lives.held(),
      // Admitted loads only: a load still waiting for its slot counts as waiting.
      loading: this.#admission.admitted,
      waiting: this.#admission.waiting,
      loads: this.#loads,
      evictions: this.#lives.evictions,
    });
  }

  get(id: string): Promise<Result<Session, SessionResolveError>> {
    if (this.#closing !== undefined) return Promise.resolve(closedError(undefined));
    // Only checked ids are ever live, so a hit needs no second check.
    const live = this.#lives.get(id);
    if (live !== undefined) {
      this.#lives.touch(live);
      return live.got;
    }
    const checked = checkId(id, 'id');
    if (!checked.ok) return Promise.resolve(checked);
    return this.#load(id).done.then((loaded) =>
      loaded.ok ? { ok: true, value: loaded.value.session } : loaded,
    );
  }

  run<T>(
    id: string,
    fn: (session: Session) => T | Promise<T>,
  ): Promise<Result<Awaited<T>, SessionResolveError>> {
    if (typeof fn !== 'function')
      throw invalidArgument('SessionPool.run', 'fn', 'must be a function');
    return this.#track(id, this.#run(id, fn));
  }

  async flush(id: string): Promise<Result<number, SessionResolveError>> {
    const checked = checkId(id, 'id');
    if (!checked.ok) return checked;
    return this.#lives.flush(id);
  }

  async evict(id: string): Promise<Result<number, SessionResolveError>> {
    const checked = checkId(id, 'id');
    if (!checked.ok) return checked;
    return this.#lives.evictWhenIdle(id);
  }

  subscribe(id: string, listener: ConversationListener): Result<Unsubscribe, SessionResolveError> {
    if (typeof listener !== 'function')
      throw invalidArgument('SessionPool.subscribe', 'listener', 'must be a function');
    const checked = checkId(id, 'id');
    if (!checked.ok) return checked;
    // Other workers' commits reach subscribers through the store's watch, if it has one.
    this.#watch.start();
    return { ok: true, value: this.#subscriptions.add(id, listener, (at) => this.#lives.get(at)) };
  }

  /** A commit the store's watch heard: refreshes the conversation when subscribers follow it. */
  #heard({ sessionId: id, version }: StoreCommit): void {
    if (this.#closing !== undefined || !this.#subscriptions.has(id)) return;
    void this.#track(id, this.#refresh(id, version));
  }

  /**
   * Brings conversation `id` up to `version` for its subscribers: a commit this copy made (or
   * has loaded) is already theirs; otherwise another worker made it, so the stale copy is
   * evicted, the conversation loaded again, and its subscribers told.
   */
  async #refresh(id: string, version: number): Promise<void> {
    const live = this.#lives.get(id);
    if (live !== undefined) {
      const flushed = await live.attachment.flush();
      if (flushed.ok && flushed.value >= version) return;
      await this.#lives.evictWhenIdle(id);
    }
    if (this.#closing !== undefined || !this.#subscriptions.has(id)) return;
    const loaded = await this.#hold(id, async (session) => session, false);
    if (!loaded.ok) return;
    const clock = this.#options.sessionOptions.clock ?? Date.now;
    this.#subscriptions.tell(id, loaded.value, clock());
  }

  resolver<C>(
    contextToId: (context: C) => string | null | undefined,
  ): (context: C) => Session | Promise<Session> {
    if (typeof contextToId !== 'function')
      throw invalidArgument('SessionPool.resolver', 'contextToId', 'must be a function');
    const resolve = (context: C): Session | Promise<Session> => {
      const id: unknown = contextToId(context);
      // A hit answers synchronously: no promise, no microtask.
      const live =
        this.#closing === undefined && typeof id === 'string' ? this.#lives.get(id) : undefined;
      if (live !== undefined) {
        this.#lives.touch(live);
        return live.session;
      }
      const checked = checkId(id, 'id');
      if (!checked.ok) throw checked.error;
      return this.get(checked.value).then((got) => {
        if (!got.ok) throw got.error;
        return got.value;
      });
    };
    const conversations: PooledConversations<C> = {
      idOf: (context) => {
        let id: unknown;
        try {
          id = contextToId(context);
        } catch (cause) {
          if (SessionResolveError.isInstance(cause)) return { ok: false, error: cause };
          return refused(
            'session_unresolved',
            `The session resolver failed: ${reasonOf(cause)}`,
            undefined,
          );
        }
        if (this.#closing !== undefined) return closedError(undefined);
        // Only checked ids are ever live: a live one needs no second check.
        return typeof id === 'string' && this.#lives.has(id)
          ? { ok: true, value: id }
          : checkId(id, 'id');
      },
      keyOf: (id) => this.#keys.keyOf(id),
      hold: (id, fn, durable) => this.#track(id, this.#hold(id, fn, durable)),
      subscribe: (id, listener) => this.subscribe(id, listener),
      peek: (id) => this.#lives.get(id)?.session,
    };
    registerPooledResolver(resolve, conversations);
    return resolve;
  }

  close(options: ClosePoolOptions = {}): Promise<Result<void, SessionResolveError>> {
    if (!isRecord(options))
      throw invalidArgument('SessionPool.close', 'options', 'must be an object');
    checkOptionKeys('SessionPool.close', options, CLOSE_KEYS);
    const { timeoutMs = 30_000 } = options;
    const limit = timeout(timeoutMs, 'options.timeoutMs', 'SessionPool.close');
    this.#closing ??= this.#closeWithin(limit);
    return this.#closing;
  }

  async #closeWithin(timeoutMs: number): Promise<Result<void, SessionResolveError>> {
    const closed = await withinTime(this.#close(), timeoutMs);
    if (closed !== TIMED_OUT) return closed;
    // Whatever is still loading, running, live or flushing was not finished.
    const abandoned = [
      ...new Set([
        ...this.#loading.keys(),
        ...this.#runs.values(),
        ...this.#lives.all().map((live) => live.id),
        ...this.#lives.allLeaving().map(([id]) => id),
      ]),
    ].sort();
    const names = clipText(abandoned.join(', '), NAMED_ABANDONED);
    return {
      ok: false,
      error: new SessionResolveError(
        'pool_close_timed_out',
        `The session pool stopped waiting after ${timeoutMs} ms (timeoutMs) and abandoned ${plural(abandoned.length, 'conversation')}: ${names}. Their loads, runs or unsaved changes may still finish, or be lost.`,
        { abandoned },
      ),
    };
  }

  async #close(): Promise<Result<void, SessionResolveError>> {
    await this.#watch.close();
    this.#admission.refuseWaiting(() => closedError(undefined));
    await Promise.allSettled([...this.#loading.values()].map((loading) => loading.done));
    await Promise.allSettled([...this.#runs.keys()]);
    const results = await Promise.all(
      this.#lives
        .all()
        .map(async (live) => inFamily(live.id, await this.#lives.evict(live, 'close'))),
    );
    const leftovers = await Promise.all(
      this.#lives.allLeaving().map(async ([id, leaving]) => inFamily(id, await leaving)),
    );
    const failed = [...results, ...leftovers].find((result) => !result.ok);
    return failed === undefined || failed.ok ? OK_VOID : failed;
  }

  #track<R>(id: string, running: Promise<R>): Promise<R> {
    this.#runs.set(running, id);
    const forget = (): void => {
      this.#runs.delete(running);
    };
    void running.then(forget, forget);
    return running;
  }

  /**
   * The live session of `id` with one use taken for the caller: a hit, or an admission and a
   * load (which every caller arriving meanwhile shares).
   */
  async #acquire(id: string): Promise<Result<LiveSession, SessionResolveError>> {
    for (;;) {
      if (this.#closing !== undefined) return closedError(id);
      const live = this.#lives.get(id);
      if (live !== undefined) {
        this.#lives.touch(live);
        live.uses++;
        return { ok: true, value: live };
      }
      const loading = this.#load(id);
      loading.holders++;
      const loaded = await loading.done;
      if (!loaded.ok) return loaded;
      // Dropped (a failed attachment) between its load and now: load it again.
      if (!loaded.value.gone) return loaded;
    }
  }

  #release(live: LiveSession): void {
    if (releaseUse(live)) this.#admission.admitWaiting();
  }

  async #hold<T>(
    id: string,
    fn: (session: Session) => Promise<T>,
    durable: boolean,
  ): Promise<Result<T, SessionResolveError>> {
    for (;;) {
      const acquired = await this.#acquire(id);
      if (!acquired.ok) return acquired;
      const live = acquired.value;
      let outcome: Result<T, SessionResolveError> | 'again';
      try {
        outcome = await takeTurn(live, async () =>
          // Dropped (a conflict) while waiting for its turn: get the fresh copy.
          live.gone ? 'again' : { ok: true as const, value: await fn(live.session) },
        );
        // Flushed after the turn, so the conversation's next call runs meanwhile and the store
        // can write both in one batch; the copy stays held until the write is acknowledged.
        if (durable && outcome !== 'again' && outcome.ok)
          outcome = await this.#stored(live, outcome);
      } finally {
        this.#release(live);
      }
      if (outcome !== 'again') return outcome;
    }
  }

  /** `outcome` once the store has acknowledged every change of `live` so far; else the failure. */
  async #stored<T>(
    live: LiveSession,
    outcome: Result<T, SessionResolveError>,
  ): Promise<Result<T, SessionResolveError>> {
    const flushed = await live.attachment.flush();
    if (flushed.ok) return outcome;
    this.#lives.dropFailed(live);
    // Never retried: the call has run and its result was not returned, so it is not run twice.
    const failed = this.#storeFailure(live.id, flushed.error, this.#options.retries, false);
    return failed === 'retry' ? outcome : failed;
  }

  async #run<T>(
    id: string,
    fn: (session: Session) => T | Promise<T>,
  ): Promise<Result<Awaited<T>, SessionResolveError>> {
    const checked = checkId(id, 'id');
    if (!checked.ok) return checked;
    for (let attempt = 0; ; ) {
      const acquired = await this.#acquire(id);
      if (!acquired.ok) return acquired;
      const live = acquired.value;
      let outcome: Result<Awaited<T>, SessionResolveError> | 'retry' | 'again';
      try {
        outcome = await takeTurn<Result<Awaited<T>, SessionResolveError> | 'retry' | 'again'>(
          live,
          () =>
            // Dropped (a conflict) while waiting for its turn: get the fresh copy.
            live.gone ? 'again' : this.#attempt(live, fn, attempt),
        );
      } finally {
        this.#release(live);
      }
      if (outcome === 'again') continue;
      if (outcome !== 'retry') return outcome;
      attempt++;
    }
  }

  async #attempt<T>(
    live: LiveSession,
    fn: (session: Session) => T | Promise<T>,
    attempt: number,
  ): Promise<Result<Awaited<T>, SessionResolveError> | 'retry'> {
    const { id, attachment } = live;
    // What was saved before fn ran: a conflict after it means none of fn's changes were.
    const before = await attachment.flush();
    if (!before.ok) {
      this.#lives.dropFailed(live);
      return this.#storeFailure(id, before.error, attempt, true);
    }
    const value = await fn(live.session);
    const flushed = await attachment.flush();
    if (flushed.ok) return { ok: true, value };
    this.#lives.dropFailed(live);
    return this.#storeFailure(id, flushed.error, attempt, attachment.version === before.value);
  }

  #storeFailure(
    id: string,
    error: StoreError,
    attempt: number,
    nothingSaved: boolean,
  ): Result<never, SessionResolveError> | 'retry' {
    if (error.code !== 'conflict') {
      return refused(
        'session_store_failed',
        `The store failed to save conversation ${id} (${error.code}): ${reasonOf(error.message)} Its unsaved changes were dropped; the next call reloads what the store holds.`,
        id,
        error,
      );
    }
    if (nothingSaved && attempt < this.#options.retries) return 'retry';
    return refused(
      'session_conflict',
      nothingSaved
        ? `Conversation ${id} was changed by another process ${attempt + 1} times while this call ran; the call was not saved. Try it again.`
        : `Conversation ${id} was changed by another process while this call ran, after changes made meanwhile were saved (possibly some of this call's); the rest were not. Read the state again before retrying.`,
      id,
      error,
    );
  }

  #load(id: string): Loading {
    let loading = this.#loading.get(id);
    if (loading === undefined) {
      const entry: Loading = { done: Promise.resolve(closedError(id)), holders: 0 };
      entry.done = this.#open(id, entry).finally(() => {
        if (this.#loading.get(id) === entry) this.#loading.delete(id);
      });
      this.#loading.set(id, entry);
      loading = entry;
    }
    return loading;
  }

  async #open(id: string, loading: Loading): Promise<Result<LiveSession, SessionResolveError>> {
    const admitted = await this.#admission.admit(id);
    if (!admitted.ok) {
      if (admitted.error.code === 'pool_full') {
        publishPoolEvent(() => ({
          type: 'pool-full',
          conversationId: id,
          live: this.#lives.size,
          waiting: this.#admission.waiting,
        }));
      }
      return admitted;
    }
    try {
      const attached = await this.#attach(id, loading);
      publishPoolEvent(() => ({
        type: 'pool-load',
        conversationId: id,
        ok: attached.ok,
        code: attached.ok ? null : attached.error.code,
        live: this.#lives.size,
      }));
      return attached;
    } finally {
      this.#admission.loaded();
      this.#admission.admitWaiting();
    }
  }

  async #attach(id: string, loading: Loading): Promise<Result<LiveSession, SessionResolveError>> {
    for (let leaving = this.#lives.leaving(id); leaving !== undefined; ) {
      await leaving;
      leaving = this.#lives.leaving(id);
    }
    if (this.#closing !== undefined) return closedError(id);
    const { store, sessionOptions, setup, attach } = this.#options;
    const session = new Session({ ...sessionOptions, sessionId: id });
    let live: LiveSession | undefined;
    let attached: Result<SessionAttachment, StoreError>;
    try {
      bindConversationKey(session, this.#keys.keyOf(id));
      registerPlanningReducers(session);
      setup?.(session);
      this.#loads++;
      const attaching = attachStore(session, store, {
        ...attach,
        onError: (error) => this.#attachmentError(live, error),
      });
      const answered = await withinTime(attaching, this.#options.loadTimeoutMs);
      if (answered === TIMED_OUT) return this.#loadTimedOut(id, session, attaching);
      attached = answered;
    } catch (error) {
      // A programmer error (a throwing setup, a store that rejects): the copy never served,
      // and must not stay subscribed to a shared bus.
      session.dispose();
      throw error;
    }
    if (!attached.ok) {
      session.dispose();
      return refused(
        'session_load_failed',
        `Conversation ${id} could not be loaded (${attached.error.code}): ${reasonOf(attached.error.message)}`,
        id,
        attached.error,
      );
    }
    if (this.#closing !== undefined) {
      await attached.value.detach();
      session.dispose();
      return closedError(id);
    }
    live = {
      id,
      session,
      got: Promise.resolve(Object.freeze({ ok: true as const, value: session })),
      attachment: attached.value,
      // Every holder waiting for this load has its use now, so the copy cannot be evicted
      // before they reach it.
      uses: loading.holders,
      busy: false,
      turns: [],
      gone: false,
      idle: [],
      wired: new Map(),
    };
    this.#subscriptions.wireAll(live);
    this.#lives.add(live);
    return { ok: true, value: live };
  }

  /**
   * Gives up a load that took longer than `loadTimeoutMs`: the caller is refused and the slot
   * freed now; a late answer attaches nothing and its copy is disposed unused.
   */
  #loadTimedOut(
    id: string,
    session: Session,
    attaching: Promise<Result<SessionAttachment, StoreError>>,
  ): Result<never, SessionResolveError> {
    // The id is free on the bus now, so the next load of it can attach; the late answer
    // attaches nothing.
    giveUpAttaching(session);
    const drop = (): void => session.dispose();
    void attaching.then(drop, drop);
    const { loadTimeoutMs } = this.#options;
    return refused(
      'session_load_failed',
      `Conversation ${id} was not loaded: the store did not answer within ${loadTimeoutMs} ms (loadTimeoutMs). Its slot was freed; try again shortly.`,
      id,
    );
  }

  #attachmentError(live: LiveSession | undefined, error: StoreError): void {
    if (live !== undefined && live.attachment.failure !== undefined) this.#lives.dropFailed(live);
    try {
      this.#options.onError(error);
    } catch {
      // A throwing callback must not break the pool.
    }
  }
}

/**
 * Creates a pool holding one live session per conversation, loaded from `store` on first use
 * (restoring what it holds) and saved to it as it changes. At most `max` sessions are live:
 * the least recently used is evicted (flushed, detached, disposed) to make room. Across
 * processes the store's optimistic concurrency decides: a stale copy's append is refused
 * (`conflict`), the copy is dropped, and {@link SessionPool.run} reloads and runs again.
 *
 * @example
 * ```ts
 * const pool = createSessionPool({ store: new FileStore(), max: 100 });
 * const { planning_setup_plan: setup } = createPlanningTools(new Session());
 * const saved = await pool.run('thread-1', (session) =>
 *   invokeTool(setup, { objective: 'ship v2', initial_steps: [{ title: 'draft' }] }, { session }),
 * );
 * await pool.close();
 * ```
 * @throws PlankitError `argument_invalid` for bad options
 * @public
 */
export function createSessionPool(options: SessionPoolOptions): SessionPool {
  return new Pool(checkPoolOptions(options));
}
