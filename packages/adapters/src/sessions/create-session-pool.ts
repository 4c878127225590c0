import {
  type Clock,
  type DataType,
  dataTypeName,
  type EventBus,
  type PlankitEvent,
  type Result,
  registerPlanningReducers,
  Session,
  type SessionCommitted,
  type SessionRolledBack,
  type Unsubscribe,
} from '@plankit/core';
import { checkOptionKeys, invalidArgument } from '@plankit/core/internal-unstable';
import { bindConversationKey } from '../host/conversation-key.ts';
import {
  type ConversationListener,
  type PooledConversations,
  registerPooledResolver,
} from '../host/pooled-conversations.ts';
import { isRecord } from '../is-record.ts';
import { attachStore, type SessionAttachment } from '../persistence/stores/attach-store.ts';
import type { SessionStore } from '../persistence/stores/session-store.ts';
import type { StoreError } from '../persistence/stores/store-error.ts';
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
  /**
   * The most live sessions kept, a hard cap: the least recently used session that no run or
   * tool call holds is evicted to make room, and while every live session is held a request
   * for another conversation waits for a slot. 100 by default.
   */
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
   * How many requests for conversations that are not live may wait for a slot while every live
   * session is held; 1,000 by default, 0 to refuse at once. One more is refused (`pool_full`).
   */
  readonly maxWaiting?: number | undefined;
  /**
   * How long a request waits for a slot before it is refused (`pool_full`), in ms: an integer
   * from 0 to 2,147,483,647 (the longest a timer waits); 30,000 by default.
   */
  readonly waitTimeoutMs?: number | undefined;
  /**
   * Told about failures in the background: an attachment that stopped (a `conflict` with
   * another process, an unreachable store), an eviction whose flush failed, a failed snapshot.
   */
  readonly onError?: ((error: StoreError) => void) | undefined;
}

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
   *
   * @returns `ok` when every flush succeeded, else the first failure (all are reported to
   *   `onError`)
   */
  close(): Promise<Result<void, SessionResolveError>>;
}

interface Live {
  readonly id: string;
  readonly session: Session;
  readonly attachment: SessionAttachment;
  /** What `get` returns for it, settled and made once: a hit allocates nothing. */
  readonly got: Promise<Result<Session, SessionResolveError>>;
  /** Runs and tool calls holding it, in progress or waiting for their turn. */
  uses: number;
  /** A run or tool call is running on it now: runs of one conversation take turns. */
  busy: boolean;
  /** Wake-ups of the runs waiting for their turn, oldest first. */
  readonly turns: (() => void)[];
  /** No longer in the pool (evicted, failed or closed). */
  gone: boolean;
  /** Called when `uses` drops to 0. */
  idle: (() => void)[];
  /** The conversation's listeners wired to this copy's bus. */
  readonly wired: Map<ConversationListener, Unsubscribe>;
}

/** A load in progress, and how many holders wait for it (each gets a use on arrival). */
interface Loading {
  done: Promise<Result<Live, SessionResolveError>>;
  holders: number;
}

/** A request waiting for a slot. */
interface Waiter {
  readonly grant: (outcome: Result<void, SessionResolveError>) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Granted, timed out or refused: no longer waiting. */
  settled: boolean;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'store',
  'max',
  'sessionOptions',
  'setup',
  'attach',
  'retries',
  'maxWaiting',
  'waitTimeoutMs',
  'onError',
]);
const SESSION_KEYS: ReadonlySet<string> = new Set(['bus', 'clock']);
const ATTACH_KEYS: ReadonlySet<string> = new Set(['snapshotEvery', 'dataTypes']);
const OK_ZERO = Object.freeze({ ok: true as const, value: 0 });
const OK_VOID: Result<void, SessionResolveError> = Object.freeze({ ok: true, value: undefined });
// Conversations whose model-order key is kept after they stop being live: enough for a step's
// calls to find their turn again after an eviction between them.
const MIN_KEPT_KEYS = 1024;
const where = 'createSessionPool';

function checkKeys(value: unknown, keys: ReadonlySet<string>, field: string): void {
  if (!isRecord(value)) throw invalidArgument(where, field, 'must be an object');
  checkOptionKeys(where, value, keys, `${field}.`);
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

// The longest delay a timer takes: a longer one fires at once (Node sets it to 1 ms).
const MAX_TIMEOUT_MS = 2_147_483_647;

function timeout(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidArgument(where, field, `must be an integer from 0 to ${MAX_TIMEOUT_MS}`);
  }
  if (value > MAX_TIMEOUT_MS) {
    throw invalidArgument(
      where,
      field,
      `must be at most ${MAX_TIMEOUT_MS} (about 24.8 days), the longest a timer waits`,
    );
  }
  return value;
}

// Checked here, by the rules `new Session` and `attachStore` apply, so a bad value is refused
// when the pool is made, not by every load after it.
function checkSessionOptions({ bus, clock }: PooledSessionOptions): void {
  if (clock !== undefined && typeof clock !== 'function')
    throw invalidArgument(where, 'options.sessionOptions.clock', 'must be a function');
  if (
    bus !== undefined &&
    !(isRecord(bus) && typeof bus.subscribe === 'function' && typeof bus.publish === 'function')
  )
    throw invalidArgument(where, 'options.sessionOptions.bus', 'must be an EventBus');
}

function checkAttach({ snapshotEvery, dataTypes }: PooledAttachOptions): void {
  if (
    snapshotEvery !== undefined &&
    !(
      typeof snapshotEvery === 'number' &&
      (Number.isSafeInteger(snapshotEvery) || snapshotEvery === Number.POSITIVE_INFINITY) &&
      snapshotEvery >= 1
    )
  )
    throw invalidArgument(
      where,
      'options.attach.snapshotEvery',
      'must be a positive integer or Infinity',
    );
  if (dataTypes === undefined) return;
  if (!Array.isArray(dataTypes))
    throw invalidArgument(where, 'options.attach.dataTypes', 'must be an array');
  for (const [index, dataType] of dataTypes.entries()) {
    try {
      dataTypeName(dataType);
    } catch {
      throw invalidArgument(
        where,
        `options.attach.dataTypes[${index}]`,
        'must be a data type (defineDataType)',
      );
    }
  }
}

interface CheckedOptions {
  readonly store: SessionStore;
  readonly max: number;
  readonly sessionOptions: PooledSessionOptions;
  readonly setup: ((session: Session) => void) | undefined;
  readonly attach: PooledAttachOptions;
  readonly retries: number;
  readonly maxWaiting: number;
  readonly waitTimeoutMs: number;
  readonly onError: (error: StoreError) => void;
}

function checkOptions(options: SessionPoolOptions): CheckedOptions {
  checkKeys(options, OPTION_KEYS, 'options');
  const { store, max = 100, sessionOptions = {}, setup, attach = {}, retries = 3 } = options;
  const { maxWaiting = 1000, waitTimeoutMs = 30_000, onError = () => {} } = options;
  if (!isStore(store)) throw invalidArgument(where, 'options.store', 'must be a SessionStore');
  checkKeys(sessionOptions, SESSION_KEYS, 'options.sessionOptions');
  checkSessionOptions(sessionOptions);
  checkKeys(attach, ATTACH_KEYS, 'options.attach');
  checkAttach(attach);
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
    maxWaiting: count(maxWaiting, 'options.maxWaiting', 0),
    waitTimeoutMs: timeout(waitTimeoutMs, 'options.waitTimeoutMs'),
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

function inFamily(
  id: string,
  flushed: Result<number, StoreError>,
): Result<number, SessionResolveError> {
  return flushed.ok ? flushed : storeRefusal(id, flushed.error);
}

/**
 * Checks an id as every entry point does: empty or missing names no conversation
 * (`session_unresolved`), anything else follows the conversation id rule.
 */
function checkId(id: unknown, field: string): Result<string, SessionResolveError> {
  if (id === undefined || id === null || id === '') {
    return refused(
      'session_unresolved',
      `The call's context names no conversation (the ${field} is ${id === '' ? 'empty' : String(id)}), so no session serves it; plans are never shared between conversations.`,
      undefined,
    );
  }
  return parseConversationId(id, field);
}

class Pool implements SessionPool {
  readonly #options: CheckedOptions;
  // Insertion order is recency: the first entry is the least recently used.
  readonly #live = new Map<string, Live>();
  readonly #loading = new Map<string, Loading>();
  // Evictions whose flush is in progress: a load of the id waits for them.
  readonly #leaving = new Map<string, Promise<Result<number, StoreError>>>();
  readonly #runs = new Set<Promise<unknown>>();
  readonly #listeners = new Map<string, Set<ConversationListener>>();
  // Model-order keys by conversation, least recently used first; the last one asked for.
  readonly #keys = new Map<string, object>();
  #lastKeyId: string | undefined;
  #lastKey: object | undefined;
  // Requests waiting for a slot, oldest first, from `#waitHead` on (settled ones are skipped).
  #waiters: Waiter[] = [];
  #waitHead = 0;
  #waiting = 0;
  // Loads admitted (each took a slot) that are not live yet.
  #admitted = 0;
  #loads = 0;
  #evictions = 0;
  // The last entry of #live, so touching it again costs nothing.
  #recent: Live | undefined;
  #closing: Promise<Result<void, SessionResolveError>> | undefined;

  constructor(options: CheckedOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#live.size;
  }

  has(id: string): boolean {
    return this.#live.has(id);
  }

  stats(): SessionPoolStats {
    let held = 0;
    for (const live of this.#live.values()) if (live.uses > 0) held++;
    return Object.freeze({
      live: this.#live.size,
      held,
      // Admitted loads only: a load still waiting for its slot counts as waiting.
      loading: this.#admitted,
      waiting: this.#waiting,
      loads: this.#loads,
      evictions: this.#evictions,
    });
  }

  get(id: string): Promise<Result<Session, SessionResolveError>> {
    if (this.#closing !== undefined) return Promise.resolve(closedError(undefined));
    // Only checked ids are ever live, so a hit needs no second check.
    const live = this.#live.get(id);
    if (live !== undefined) {
      this.#touch(live);
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
    return this.#track(this.#run(id, fn));
  }

  async flush(id: string): Promise<Result<number, SessionResolveError>> {
    const checked = checkId(id, 'id');
    if (!checked.ok) return checked;
    const live = this.#live.get(id);
    if (live === undefined) return inFamily(id, (await this.#leaving.get(id)) ?? OK_ZERO);
    const flushed = await live.attachment.flush();
    if (!flushed.ok) this.#dropFailed(live);
    return inFamily(id, flushed);
  }

  async evict(id: string): Promise<Result<number, SessionResolveError>> {
    const checked = checkId(id, 'id');
    if (!checked.ok) return checked;
    const live = this.#live.get(id);
    if (live === undefined) return inFamily(id, (await this.#leaving.get(id)) ?? OK_ZERO);
    // A run may start again between its predecessor's end and this continuation.
    while (live.uses > 0) await new Promise<void>((resolve) => live.idle.push(resolve));
    if (live.gone)
      return inFamily(id, (await this.#leaving.get(id)) ?? (await live.attachment.flush()));
    return inFamily(id, await this.#evict(live));
  }

  subscribe(id: string, listener: ConversationListener): Result<Unsubscribe, SessionResolveError> {
    if (typeof listener !== 'function')
      throw invalidArgument('SessionPool.subscribe', 'listener', 'must be a function');
    const checked = checkId(id, 'id');
    if (!checked.ok) return checked;
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
    const live = this.#live.get(id);
    if (live !== undefined) this.#wire(live, subscription);
    const unsubscribe = (): void => {
      if (ended) return;
      ended = true;
      const set = this.#listeners.get(id);
      set?.delete(subscription);
      if (set?.size === 0) this.#listeners.delete(id);
      const current = this.#live.get(id);
      current?.wired.get(subscription)?.();
      current?.wired.delete(subscription);
    };
    return { ok: true, value: unsubscribe };
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
        this.#closing === undefined && typeof id === 'string' ? this.#live.get(id) : undefined;
      if (live !== undefined) {
        this.#touch(live);
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
        return typeof id === 'string' && this.#live.has(id)
          ? { ok: true, value: id }
          : checkId(id, 'id');
      },
      keyOf: (id) => this.#keyOf(id),
      hold: (id, fn) => this.#track(this.#hold(id, fn)),
      subscribe: (id, listener) => this.subscribe(id, listener),
      peek: (id) => this.#live.get(id)?.session,
    };
    registerPooledResolver(resolve, conversations);
    return resolve;
  }

  close(): Promise<Result<void, SessionResolveError>> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<Result<void, SessionResolveError>> {
    for (let index = this.#waitHead; index < this.#waiters.length; index++) {
      const waiter = this.#waiters[index];
      if (waiter === undefined || waiter.settled) continue;
      waiter.settled = true;
      clearTimeout(waiter.timer);
      waiter.grant(closedError(undefined));
    }
    this.#waiters = [];
    this.#waitHead = 0;
    this.#waiting = 0;
    await Promise.allSettled([...this.#loading.values()].map((loading) => loading.done));
    await Promise.allSettled([...this.#runs]);
    const results = await Promise.all(
      [...this.#live.values()].map(async (live) => inFamily(live.id, await this.#evict(live))),
    );
    const leftovers = await Promise.all(
      [...this.#leaving.entries()].map(async ([id, leaving]) => inFamily(id, await leaving)),
    );
    const failed = [...results, ...leftovers].find((result) => !result.ok);
    return failed === undefined || failed.ok ? OK_VOID : failed;
  }

  #track<R>(running: Promise<R>): Promise<R> {
    this.#runs.add(running);
    const forget = (): void => {
      this.#runs.delete(running);
    };
    void running.then(forget, forget);
    return running;
  }

  #keyOf(id: string): object {
    if (id === this.#lastKeyId && this.#lastKey !== undefined) return this.#lastKey;
    let key = this.#keys.get(id);
    if (key === undefined) key = {};
    else this.#keys.delete(id);
    this.#keys.set(id, key);
    this.#lastKeyId = id;
    this.#lastKey = key;
    // Conversations loading or waiting for a slot keep theirs on top of the idle ones kept, so
    // a full pool's queue does not crowd out the keys of steps between their calls.
    if (this.#keys.size > Math.max(MIN_KEPT_KEYS, 4 * this.#options.max) + this.#loading.size) {
      for (const kept of this.#keys.keys()) {
        // Never the key just asked for, which the caller is about to use.
        if (kept === id || this.#live.has(kept) || this.#loading.has(kept)) continue;
        this.#keys.delete(kept);
        break;
      }
    }
    return key;
  }

  /**
   * The live session of `id` with one use taken for the caller: a hit, or an admission and a
   * load (which every caller arriving meanwhile shares).
   */
  async #acquire(id: string): Promise<Result<Live, SessionResolveError>> {
    for (;;) {
      if (this.#closing !== undefined) return closedError(id);
      const live = this.#live.get(id);
      if (live !== undefined) {
        this.#touch(live);
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

  async #hold<T>(
    id: string,
    fn: (session: Session) => Promise<T>,
  ): Promise<Result<T, SessionResolveError>> {
    for (;;) {
      const acquired = await this.#acquire(id);
      if (!acquired.ok) return acquired;
      const live = acquired.value;
      let outcome: Result<T, SessionResolveError> | 'again';
      try {
        outcome = await this.#exclusive(live, async () =>
          // Dropped (a conflict) while waiting for its turn: get the fresh copy.
          live.gone ? 'again' : { ok: true as const, value: await fn(live.session) },
        );
      } finally {
        this.#release(live);
      }
      if (outcome !== 'again') return outcome;
    }
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
    if (live.busy) await new Promise<void>((resolve) => live.turns.push(resolve));
    live.busy = true;
    try {
      return await work();
    } finally {
      const next = live.turns.shift();
      if (next === undefined) live.busy = false;
      // The next run inherits the turn: `busy` stays set, so no newcomer overtakes it.
      else next();
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
    this.#admitWaiting();
  }

  /**
   * Takes a slot for a load: a free one, or the one of the least recently used live session
   * that nothing holds, evicted now. False when every live session is held.
   */
  #takeSlot(): boolean {
    if (this.#live.size + this.#admitted >= this.#options.max) {
      let idle: Live | undefined;
      for (const live of this.#live.values()) {
        if (live.uses === 0) {
          idle = live;
          break;
        }
      }
      if (idle === undefined) return false;
      // Not admitting from inside: this slot is the caller's.
      void this.#evict(idle, false);
    }
    this.#admitted++;
    return true;
  }

  /** Admits a load: at once when a slot can be had, else after the requests before it. */
  #admit(id: string): Promise<Result<void, SessionResolveError>> {
    if (this.#waiting === 0 && this.#takeSlot()) return Promise.resolve(OK_VOID);
    const { max, maxWaiting, waitTimeoutMs } = this.#options;
    if (this.#waiting >= maxWaiting) {
      return Promise.resolve(
        refused(
          'pool_full',
          `All ${max} live sessions are in use and ${this.#waiting} requests are waiting, so conversation ${id} was not loaded. Try again shortly.`,
          id,
        ),
      );
    }
    return new Promise((grant) => {
      const waiter: Waiter = { grant, timer: undefined, settled: false };
      this.#waiters.push(waiter);
      this.#waiting++;
      waiter.timer = setTimeout(() => {
        if (waiter.settled) return;
        waiter.settled = true;
        this.#waiting--;
        this.#compactQueue();
        grant(
          refused(
            'pool_full',
            `All ${max} live sessions stayed in use for ${waitTimeoutMs} ms, so conversation ${id} was not loaded. Try again shortly.`,
            id,
          ),
        );
      }, waitTimeoutMs);
    });
  }

  /** Gives freed slots to the waiting requests, oldest first. */
  #admitWaiting(): void {
    for (let waiter = this.#waiters[this.#waitHead]; waiter !== undefined; ) {
      if (!waiter.settled) {
        if (!this.#takeSlot()) break;
        waiter.settled = true;
        this.#waiting--;
        clearTimeout(waiter.timer);
        waiter.grant(OK_VOID);
      }
      this.#waitHead++;
      waiter = this.#waiters[this.#waitHead];
    }
    this.#compactQueue();
  }

  /** Drops settled requests from the queue's front: its memory follows the requests waiting now. */
  #compactQueue(): void {
    while (this.#waiters[this.#waitHead]?.settled === true) this.#waitHead++;
    if (this.#waitHead === this.#waiters.length) {
      this.#waiters = [];
      this.#waitHead = 0;
    } else if (this.#waitHead >= 1024 && this.#waitHead * 2 >= this.#waiters.length) {
      this.#waiters = this.#waiters.slice(this.#waitHead);
      this.#waitHead = 0;
    }
  }

  /**
   * Removes `live` from the pool now; when the current turn ends, detaches and disposes it,
   * then waits for the flush of what it changed. Until then it is still saved and its
   * subscribers still hear it, so a caller that got it from `get` in this turn and changes it
   * before awaiting I/O loses nothing.
   */
  #evict(live: Live, admit = true): Promise<Result<number, StoreError>> {
    const { id } = live;
    this.#evictions++;
    this.#forget(live);
    const done = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const flushing = live.attachment.detach();
      // Disposed before the flush is awaited: a call on the detached copy must fail, not
      // report a change that is never saved.
      this.#unwire(live);
      live.session.dispose();
      const flushed = await flushing;
      // A failed flush is the attachment's failure, which onError has been told about.
      return flushed;
    })();
    const leaving = done.finally(() => {
      if (this.#leaving.get(id) === leaving) this.#leaving.delete(id);
    });
    this.#leaving.set(id, leaving);
    if (admit) this.#admitWaiting();
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
    this.#unwire(live);
    void live.attachment.detach();
    live.session.dispose();
    this.#admitWaiting();
  }

  #wire(live: Live, listener: ConversationListener): void {
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

  #unwire(live: Live): void {
    for (const stop of live.wired.values()) stop();
    live.wired.clear();
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

  async #open(id: string, loading: Loading): Promise<Result<Live, SessionResolveError>> {
    const admitted = await this.#admit(id);
    if (!admitted.ok) return admitted;
    try {
      return await this.#attach(id, loading);
    } finally {
      this.#admitted--;
      this.#admitWaiting();
    }
  }

  async #attach(id: string, loading: Loading): Promise<Result<Live, SessionResolveError>> {
    for (let leaving = this.#leaving.get(id); leaving !== undefined; ) {
      await leaving;
      leaving = this.#leaving.get(id);
    }
    if (this.#closing !== undefined) return closedError(id);
    const { store, sessionOptions, setup, attach } = this.#options;
    const session = new Session({ ...sessionOptions, sessionId: id });
    let live: Live | undefined;
    let attached: Result<SessionAttachment, StoreError>;
    try {
      bindConversationKey(session, this.#keyOf(id));
      registerPlanningReducers(session);
      setup?.(session);
      this.#loads++;
      attached = await attachStore(session, store, {
        ...attach,
        onError: (error) => this.#attachmentError(live, error),
      });
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
    for (const listener of this.#listeners.get(id) ?? []) this.#wire(live, listener);
    this.#live.set(id, live);
    this.#recent = live;
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
  return new Pool(checkOptions(options));
}
