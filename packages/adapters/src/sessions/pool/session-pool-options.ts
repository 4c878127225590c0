import {
  type Clock,
  type DataType,
  dataTypeName,
  type EventBus,
  type PlankitEvent,
  type Session,
} from '@plankit/core';
import { checkOptionKeys, invalidArgument, isRecord } from '@plankit/core/internal-unstable';
import { MAX_TIMEOUT_MS } from '../../host/host-tool-options.ts';
import type { SessionStore } from '../../persistence/stores/session-store.ts';
import type { StoreError } from '../../persistence/stores/store-error.ts';

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
   * How long a store may take to load a conversation, in ms, an integer from 0 to
   * 2,147,483,647; 30,000 by default. A load that takes longer is refused
   * (`session_load_failed`) and frees its slot, so a store that never answers cannot hold the
   * pool's slots, or `close()`, forever; if it answers later, the copy is dropped unused.
   */
  readonly loadTimeoutMs?: number | undefined;
  /**
   * Told about failures in the background: an attachment that stopped (a `conflict` with
   * another process, an unreachable store), an eviction whose flush failed, a failed snapshot.
   */
  readonly onError?: ((error: StoreError) => void) | undefined;
}

/** The pool's options, checked and with their defaults filled in. */
export interface CheckedPoolOptions {
  readonly store: SessionStore;
  readonly max: number;
  readonly sessionOptions: PooledSessionOptions;
  readonly setup: ((session: Session) => void) | undefined;
  readonly attach: PooledAttachOptions;
  readonly retries: number;
  readonly maxWaiting: number;
  readonly waitTimeoutMs: number;
  readonly loadTimeoutMs: number;
  readonly onError: (error: StoreError) => void;
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
  'loadTimeoutMs',
  'onError',
]);
const SESSION_KEYS: ReadonlySet<string> = new Set(['bus', 'clock']);
const ATTACH_KEYS: ReadonlySet<string> = new Set(['snapshotEvery', 'dataTypes']);
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

/**
 * Checks a time limit in ms: an integer from 0 to the longest a timer waits.
 *
 * @throws PlankitError `argument_invalid` naming `field`
 */
export function timeout(value: unknown, field: string, at: string = where): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidArgument(at, field, `must be an integer from 0 to ${MAX_TIMEOUT_MS}`);
  }
  if (value > MAX_TIMEOUT_MS) {
    throw invalidArgument(
      at,
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

/**
 * Checks every option of `createSessionPool` and fills in the defaults.
 *
 * @throws PlankitError `argument_invalid` naming the first bad option
 */
export function checkPoolOptions(options: SessionPoolOptions): CheckedPoolOptions {
  checkKeys(options, OPTION_KEYS, 'options');
  const { store, max = 100, sessionOptions = {}, setup, attach = {}, retries = 3 } = options;
  const { maxWaiting = 1000, waitTimeoutMs = 30_000, loadTimeoutMs = 30_000 } = options;
  const { onError = () => {} } = options;
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
    loadTimeoutMs: timeout(loadTimeoutMs, 'options.loadTimeoutMs'),
    onError,
  };
}
