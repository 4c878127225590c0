import {
  type Clock,
  type DataType,
  type EventBus,
  type PlankitEvent,
  type Result,
  registerPlanningReducers,
  Session,
} from '@plankit/core';
import { invalidArgument } from '@plankit/core/internal';
import { attachStore, type SessionAttachment } from '../stores/attach-store.ts';
import type { SessionStore } from '../stores/session-store.ts';
import type { StoreError } from '../stores/store-error.ts';
import { parseConversationId } from './conversation-id.ts';
import { reasonOf, SessionResolveError } from './session-resolve-error.ts';

/** What every pooled `Session` is created with; the id is the conversation id. @public */
export interface PooledSessionOptions {
  /** The bus of every pooled session; each gets a private one by default. */
  readonly bus?: EventBus<PlankitEvent> | undefined;
  /** Where time comes from when a caller gives none; `Date.now` by default. */
  readonly clock?: Clock | undefined;
}

/** The `attachStore` options a pool attaches every session with. @public */
export interface PooledAttachOptions {
  /** Save a snapshot every this many events (a positive integer, or `Infinity`); 100 by default. */
  readonly snapshotEvery?: number | undefined;
  /** Data types dispatched that are not slices of their own, so a reload can replay them. */
  readonly dataTypes?: readonly DataType[] | undefined;
}

/** Options of {@link createSessionPool}. @public */
export interface SessionPoolOptions {
  /** Where conversations are kept: `FileStore`, `PostgresStore`, `MemoryStore`. Never closed by the pool. */
  readonly store: SessionStore;
  /** The most live sessions kept (least recently used evicted first); 100 by default. */
  readonly max?: number | undefined;
  /** Given to every `new Session`: a shared bus, a clock. */
  readonly sessionOptions?: PooledSessionOptions | undefined;
  /**
   * Registers the host's reducers on each fresh session, before it is attached and restored.
   * The planning reducers are registered already. Must not dispatch.
   */
  readonly setup?: ((session: Session) => void) | undefined;
  /** How each session is attached (`snapshotEvery`, `dataTypes`). */
  readonly attach?: PooledAttachOptions | undefined;
  /** How many times {@link SessionPool.run} re-runs its function after a conflict; 3 by default. */
  readonly retries?: number | undefined;
  /**
   * Told about failures in the background: an attachment that stopped (a `conflict` with
   * another process, an unreachable store), an eviction whose flush failed, a failed snapshot.
   */
  readonly onError?: ((error: StoreError) => void) | undefined;
}

/**
 * One live session per conversation id, loaded from and saved to a {@link SessionStore}. See
 * {@link createSessionPool}.
 *
 * @public
 */
export interface SessionPool {
  /** The number of live sessions. */
  readonly size: number;
  /**
   * The live session of conversation `id`, loaded (or created) and attached on a miss.
   * Concurrent calls for one id share one load and get the same `Session`. An evicted session
   * stays attached until the current macrotask ends, so changes made before awaiting I/O are
   * saved; use {@link SessionPool.run} for work that waits for I/O before changing it.
   *
   * @returns the session; or `conversation_id_invalid` (the store is not called),
   *   `session_load_failed`, `pool_closed`
   */
  get(id: string): Promise<Result<Session, SessionResolveError>>;
  /**
   * Runs `fn` on the session of `id`, keeping it live meanwhile, then flushes: resolves `ok`
   * only once every change `fn` made is acknowledged by the store. Runs of one conversation
   * take turns (each waits for the previous one's flush); runs of different ones do not. After a `conflict` with
   * another process, when none of `fn`'s changes was saved, reloads and runs `fn` again (up to
   * `retries` times), so `fn` must change nothing but the session.
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
   * Waits until every change made so far to the live session of `id` is acknowledged.
   *
   * @returns the acknowledged version (0 when `id` is not live), or the error that stopped
   *   persistence (`conflict`: the copy was stale and has been dropped; get it again)
   */
  flush(id: string): Promise<Result<number, StoreError>>;
  /**
   * Evicts the session of `id` now (after any `run` on it ends): flushes, detaches and
   * disposes it.
   *
   * @returns the flush's outcome; `ok` with 0 when `id` is not live
   */
  evict(id: string): Promise<Result<number, StoreError>>;
  /** True when conversation `id` has a live session. */
  has(id: string): boolean;
  /**
   * A {@link SessionSource} resolver for the adapters: `contextToId(context)` names the
   * conversation, and the resolver gets its session. A live conversation's session comes back
   * synchronously (a hit allocates no promise); otherwise a promise of it, after the load.
   * It throws a {@link SessionResolveError} (synchronously when the context names no
   * conversation: `undefined`, `null`, `''`, as `session_unresolved`; else the promise rejects
   * with the failures of {@link SessionPool.get}), which `resolveSession` returns as a result.
   */
  resolver<C>(
    contextToId: (context: C) => string | null | undefined,
  ): (context: C) => Session | Promise<Session>;
  /**
   * Refuses later calls (`pool_closed`), waits for loads and runs in progress, then flushes,
   * detaches and disposes every live session. Does not close the store.
   *
   * @returns `ok` when every flush succeeded, else the first failure (all are reported to
   *   `onError`)
   */
  close(): Promise<Result<void, StoreError>>;
}

interface Live {
  readonly id: string;
  readonly session: Session;
  readonly attachment: SessionAttachment;
  /** What `get` returns for it, settled and made once: a hit allocates nothing. */
  readonly got: Promise<Result<Session, SessionResolveError>>;
  /** Runs in progress or waiting for their turn. */
  uses: number;
  /** Settles when the runs started so far are done: runs of one conversation take turns. */
  lock: Promise<void>;
  /** No longer in the pool (evicted, failed or closed). */
  gone: boolean;
  /** Called when `uses` drops to 0. */
  idle: (() => void)[];
}

const OPTION_KEYS = ['store', 'max', 'sessionOptions', 'setup', 'attach', 'retries', 'onError'];
const SESSION_KEYS = ['bus', 'clock'];
const ATTACH_KEYS = ['snapshotEvery', 'dataTypes'];
const OK_ZERO: Result<number, StoreError> = Object.freeze({ ok: true, value: 0 });
const where = 'createSessionPool';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkKeys(value: unknown, keys: readonly string[], field: string): void {
  if (!isRecord(value)) throw invalidArgument(where, field, 'must be an object');
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw invalidArgument(where, `${field}.${key}`, 'is not an option');
  }
}

function isStore(value: unknown): value is SessionStore {
  if (!isRecord(value)) return false;
  return ['load', 'append', 'saveSnapshot', 'list', 'delete', 'close'].every(
    (method) => typeof value[method] === 'function',
  );
}

function count(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalidArgument(where, field, `must be an integer of at least ${min}`);
  }
  return value;
}

interface CheckedOptions {
  readonly store: SessionStore;
  readonly max: number;
  readonly sessionOptions: PooledSessionOptions;
  readonly setup: ((session: Session) => void) | undefined;
  readonly attach: PooledAttachOptions;
  readonly retries: number;
  readonly onError: (error: StoreError) => void;
}

function checkOptions(options: SessionPoolOptions): CheckedOptions {
  checkKeys(options, OPTION_KEYS, 'options');
  const { store, max = 100, sessionOptions = {}, setup, attach = {}, retries = 3 } = options;
  const { onError = () => {} } = options;
  if (!isStore(store)) throw invalidArgument(where, 'options.store', 'must be a SessionStore');
  checkKeys(sessionOptions, SESSION_KEYS, 'options.sessionOptions');
  checkKeys(attach, ATTACH_KEYS, 'options.attach');
  if (setup !== undefined && typeof setup !== 'function')
    throw invalidArgument(where, 'options.setup', 'must be a function');
  if (typeof onError !== 'function')
    throw invalidArgument(where, 'options.onError', 'must be a function');
  return {
    store,
    max: count(max, 'options.max', 1),
    sessionOptions,
    setup,
    attach,
    retries: count(retries, 'options.retries', 0),
    onError,
  };
}

function refused(
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

const closedError = (id: string | undefined) =>
  refused('pool_closed', 'The session pool is closed.', id);

class Pool implements SessionPool {
  readonly #options: CheckedOptions;
  // Insertion order is recency: the first entry is the least recently used.
  readonly #live = new Map<string, Live>();
  readonly #loading = new Map<string, Promise<Result<Live, SessionResolveError>>>();
  // Evictions whose flush is in progress: a load of the id waits for them.
  readonly #leaving = new Map<string, Promise<Result<number, StoreError>>>();
  readonly #runs = new Set<Promise<unknown>>();
  // The last entry of #live, so touching it again costs nothing.
  #recent: Live | undefined;
  #closing: Promise<Result<void, StoreError>> | undefined;

  constructor(options: CheckedOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#live.size;
  }

  has(id: string): boolean {
    return this.#live.has(id);
  }

  get(id: string): Promise<Result<Session, SessionResolveError>> {
    if (this.#closing !== undefined) return Promise.resolve(closedError(undefined));
    // Only checked ids are ever live, so a hit needs no second check.
    const live = this.#live.get(id);
    if (live !== undefined) {
      this.#touch(live);
      return live.got;
    }
    const checked = parseConversationId(id, 'id');
    if (!checked.ok) return Promise.resolve(checked);
    return this.#load(id).then((loaded) =>
      loaded.ok ? { ok: true, value: loaded.value.session } : loaded,
    );
  }

  run<T>(
    id: string,
    fn: (session: Session) => T | Promise<T>,
  ): Promise<Result<Awaited<T>, SessionResolveError>> {
    if (typeof fn !== 'function')
      throw invalidArgument('SessionPool.run', 'fn', 'must be a function');
    const running = this.#run(id, fn);
    this.#runs.add(running);
    void running.then(
      () => this.#runs.delete(running),
      () => this.#runs.delete(running),
    );
    return running;
  }

  async flush(id: string): Promise<Result<number, StoreError>> {
    const live = this.#live.get(id);
    if (live === undefined) return (await this.#leaving.get(id)) ?? OK_ZERO;
    const flushed = await live.attachment.flush();
    if (!flushed.ok) this.#dropFailed(live);
    return flushed;
  }

  async evict(id: string): Promise<Result<number, StoreError>> {
    const live = this.#live.get(id);
    if (live === undefined) return (await this.#leaving.get(id)) ?? OK_ZERO;
    // A run may start again between its predecessor's end and this continuation.
    while (live.uses > 0) await new Promise<void>((resolve) => live.idle.push(resolve));
    if (live.gone) return (await this.#leaving.get(id)) ?? live.attachment.flush();
    return this.#evict(live);
  }

  resolver<C>(
    contextToId: (context: C) => string | null | undefined,
  ): (context: C) => Session | Promise<Session> {
    if (typeof contextToId !== 'function')
      throw invalidArgument('SessionPool.resolver', 'contextToId', 'must be a function');
    return (context: C): Session | Promise<Session> => {
      const id: unknown = contextToId(context);
      if (id === undefined || id === null || id === '') {
        throw new SessionResolveError(
          'session_unresolved',
          `The call's context names no conversation (the id is ${id === '' ? 'empty' : String(id)}), so no session serves it; plans are never shared between conversations.`,
        );
      }
      // A hit answers synchronously: no promise, no microtask.
      const live = this.#closing === undefined ? this.#live.get(id as string) : undefined;
      if (live !== undefined) {
        this.#touch(live);
        return live.session;
      }
      return this.get(id as string).then((got) => {
        if (!got.ok) throw got.error;
        return got.value;
      });
    };
  }

  close(): Promise<Result<void, StoreError>> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<Result<void, StoreError>> {
    await Promise.allSettled([...this.#loading.values()]);
    await Promise.allSettled([...this.#runs]);
    const results = await Promise.all([...this.#live.values()].map((live) => this.#evict(live)));
    const leftovers = await Promise.all([...this.#leaving.values()]);
    const failed = [...results, ...leftovers].find((result) => !result.ok);
    return failed === undefined || failed.ok ? { ok: true, value: undefined } : failed;
  }

  async #run<T>(
    id: string,
    fn: (session: Session) => T | Promise<T>,
  ): Promise<Result<Awaited<T>, SessionResolveError>> {
    for (let attempt = 0; ; ) {
      if (this.#closing !== undefined) return closedError(id);
      const checked = parseConversationId(id, 'id');
      if (!checked.ok) return checked;
      let live = this.#live.get(id);
      if (live === undefined) {
        const loaded = await this.#load(id);
        if (!loaded.ok) return loaded;
        live = loaded.value;
        // Evicted between its load and now: it is saved until the turn ends, then detached.
        if (live.gone) continue;
      } else {
        this.#touch(live);
      }
      live.uses++;
      let outcome: Result<Awaited<T>, SessionResolveError> | 'retry' | 'again';
      try {
        outcome = await this.#exclusive<
          Result<Awaited<T>, SessionResolveError> | 'retry' | 'again'
        >(live, () =>
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

  /**
   * Runs `work` once the earlier runs of `live` are done. One run at a time per conversation
   * makes a run's flush cover its own changes only, so a refused run saved nothing.
   */
  async #exclusive<R>(live: Live, work: () => R | Promise<R>): Promise<R> {
    const previous = live.lock;
    let unlock = () => {};
    const mine = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    live.lock = previous.then(() => mine);
    await previous;
    try {
      return await work();
    } finally {
      unlock();
    }
  }

  async #attempt<T>(
    live: Live,
    fn: (session: Session) => T | Promise<T>,
    attempt: number,
  ): Promise<Result<Awaited<T>, SessionResolveError> | 'retry'> {
    const { id, attachment } = live;
    // What was saved before fn ran: a conflict after it means none of fn's changes were.
    const before = await attachment.flush();
    if (!before.ok) {
      this.#dropFailed(live);
      return this.#storeFailure(id, before.error, attempt, true);
    }
    const value = await fn(live.session);
    const flushed = await attachment.flush();
    if (flushed.ok) return { ok: true, value };
    this.#dropFailed(live);
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

  #touch(live: Live): void {
    if (this.#recent === live) return;
    this.#recent = live;
    this.#live.delete(live.id);
    this.#live.set(live.id, live);
  }

  #release(live: Live): void {
    live.uses--;
    if (live.uses > 0) return;
    const idle = live.idle;
    live.idle = [];
    for (const resolve of idle) resolve();
    this.#evictExcess();
  }

  #evictExcess(): void {
    let excess = this.#live.size - this.#options.max;
    if (excess <= 0) return;
    for (const live of this.#live.values()) {
      if (excess <= 0) break;
      if (live.uses > 0) continue;
      excess--;
      void this.#evict(live);
    }
  }

  /**
   * Removes `live` from the pool now; when the current turn ends, detaches it (flushing) and
   * disposes it. Until then it is still saved, so a caller that got it from `get` in this
   * turn and changes it before awaiting I/O loses nothing.
   */
  #evict(live: Live): Promise<Result<number, StoreError>> {
    const { id } = live;
    this.#forget(live);
    const done = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const flushed = await live.attachment.detach();
      live.session.dispose();
      // A failed flush is the attachment's failure, which onError has been told about.
      return flushed;
    })();
    const leaving = done.finally(() => {
      if (this.#leaving.get(id) === leaving) this.#leaving.delete(id);
    });
    this.#leaving.set(id, leaving);
    return leaving;
  }

  #forget(live: Live): void {
    live.gone = true;
    if (this.#recent === live) this.#recent = undefined;
    if (this.#live.get(live.id) === live) this.#live.delete(live.id);
  }

  /** Drops a copy whose attachment stopped: its unsaved changes cannot be saved any more. */
  #dropFailed(live: Live): void {
    if (live.gone) return;
    this.#forget(live);
    void live.attachment.detach();
    live.session.dispose();
  }

  #load(id: string): Promise<Result<Live, SessionResolveError>> {
    let loading = this.#loading.get(id);
    if (loading === undefined) {
      const started = this.#open(id);
      loading = started.finally(() => {
        if (this.#loading.get(id) === loading) this.#loading.delete(id);
      });
      this.#loading.set(id, loading);
    }
    return loading;
  }

  async #open(id: string): Promise<Result<Live, SessionResolveError>> {
    for (let leaving = this.#leaving.get(id); leaving !== undefined; ) {
      await leaving;
      leaving = this.#leaving.get(id);
    }
    if (this.#closing !== undefined) return closedError(id);
    const { store, sessionOptions, setup, attach } = this.#options;
    const session = new Session({ ...sessionOptions, sessionId: id });
    registerPlanningReducers(session);
    setup?.(session);
    let live: Live | undefined;
    const attached = await attachStore(session, store, {
      ...attach,
      onError: (error) => this.#attachmentError(live, error),
    });
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
      uses: 0,
      lock: Promise.resolve(),
      gone: false,
      idle: [],
    };
    this.#live.set(id, live);
    this.#recent = live;
    this.#evictExcess();
    return { ok: true, value: live };
  }

  #attachmentError(live: Live | undefined, error: StoreError): void {
    if (live !== undefined && live.attachment.failure !== undefined) this.#dropFailed(live);
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
 * const [setup] = createPlanningTools(new Session());
 * const saved = await pool.run('thread-1', (session) =>
 *   invokeTool(setup, { objective: 'ship v2', initial_steps: [{ title: 'draft' }] }, { session }),
 * );
 * await pool.close();
 * ```
 * @throws PlankitError `argument_invalid` for bad options
 * @public
 */
export function createSessionPool(options: SessionPoolOptions): SessionPool {
  return new Pool(checkOptions(options));
}
