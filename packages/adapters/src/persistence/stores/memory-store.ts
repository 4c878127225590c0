import type { Result } from '@plankit/core';
import { checkOptionKeys, deepFreeze, invalidArgument } from '@plankit/core/internal-unstable';
import type {
  JsonValue,
  ListOptions,
  LoadedSession,
  LoadOptions,
  NewEvent,
  SessionStore,
  SnapshotInput,
  StoredEvent,
} from './session-store.ts';
import {
  type CheckedSnapshotSchema,
  checkSnapshotSchema,
  loadSnapshot,
  type SnapshotSchema,
} from './snapshot-schema.ts';
import type { StoreError } from './store-error.ts';
import { notFound, snapshotAhead, versionConflict } from './store-failures.ts';
import {
  checkAppend,
  checkListOptions,
  checkLoadOptions,
  checkSessionId,
  checkSnapshot,
  pageOf,
  sortIds,
} from './store-input.ts';
import { StoreLifecycle } from './store-lifecycle.ts';

/** Options of {@link MemoryStore}. @public */
export interface MemoryStoreOptions {
  /** The schema version stamped on snapshots, and migrations for older ones. */
  readonly snapshotSchema?: SnapshotSchema | undefined;
}

interface MemoryEvent {
  readonly type: string;
  readonly at: number;
  readonly dataText: string;
}

interface MemorySnapshot {
  readonly version: number;
  readonly schemaVersion: number;
  readonly dataText: string;
}

interface MemorySession {
  readonly events: MemoryEvent[];
  snapshot: MemorySnapshot | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['snapshotSchema']);

/**
 * A {@link SessionStore} in memory, for tests and short-lived hosts. It keeps serialized JSON,
 * so it applies exactly the rules of the durable stores, and nothing a caller holds can alter
 * what it stores.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.append('job-42', 0, [{ type: 'app.Started', at: Date.now(), data: {} }]);
 * ```
 * @public
 */
export class MemoryStore implements SessionStore {
  readonly #sessions = new Map<string, MemorySession>();
  readonly #schema: CheckedSnapshotSchema;
  readonly #life = new StoreLifecycle('MemoryStore');

  /**
   * Creates an empty store.
   *
   * @param options - the snapshot schema; optional
   */
  constructor(options: MemoryStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw invalidArgument('new MemoryStore', 'options', 'must be an object');
    }
    checkOptionKeys('new MemoryStore', options, OPTION_KEYS, '');
    this.#schema = checkSnapshotSchema('new MemoryStore', options.snapshotSchema);
  }

  /** {@inheritDoc SessionStore.load} */
  async load(sessionId: string, options?: LoadOptions): Promise<Result<LoadedSession, StoreError>> {
    const useSnapshot = checkLoadOptions('MemoryStore.load', options);
    const id = checkSessionId(sessionId);
    if (!id.ok) return id;
    return this.#life.run(sessionId, async () => {
      const stored = this.#sessions.get(sessionId);
      if (stored === undefined) return notFound(sessionId);
      let snapshot: LoadedSession['snapshot'] = null;
      if (useSnapshot && stored.snapshot !== undefined) {
        const { version, schemaVersion, dataText } = stored.snapshot;
        const data = JSON.parse(dataText) as JsonValue;
        const restored = loadSnapshot(version, schemaVersion, data, this.#schema, sessionId);
        if (!restored.ok) return restored;
        snapshot = restored.value;
      }
      const from = snapshot?.version ?? 0;
      const events: StoredEvent[] = [];
      for (let i = from; i < stored.events.length; i++) {
        const { type, at, dataText } = stored.events[i] as MemoryEvent;
        events.push({ sequence: i + 1, type, at, data: JSON.parse(dataText) as JsonValue });
      }
      const loaded: LoadedSession = {
        sessionId,
        version: stored.events.length,
        snapshot,
        events,
        issues: [],
      };
      return { ok: true, value: deepFreeze(loaded) };
    });
  }

  /** {@inheritDoc SessionStore.append} */
  async append(
    sessionId: string,
    expectedVersion: number,
    events: readonly NewEvent[],
  ): Promise<Result<number, StoreError>> {
    const prepared = checkAppend('MemoryStore.append', sessionId, expectedVersion, events);
    if (!prepared.ok) return prepared;
    return this.#life.run(sessionId, async () => {
      const stored = this.#sessions.get(sessionId);
      const version = stored?.events.length ?? 0;
      if (version !== expectedVersion) return versionConflict(sessionId, version, expectedVersion);
      const session = stored ?? { events: [], snapshot: undefined };
      // `+ 0` turns -0 into 0, as the stores that write JSON or text give it back.
      for (const { type, at, dataText } of prepared.value)
        session.events.push({ type, at: at + 0, dataText });
      this.#sessions.set(sessionId, session);
      return { ok: true, value: session.events.length };
    });
  }

  /** {@inheritDoc SessionStore.saveSnapshot} */
  async saveSnapshot(
    sessionId: string,
    snapshot: SnapshotInput,
  ): Promise<Result<boolean, StoreError>> {
    const prepared = checkSnapshot('MemoryStore.saveSnapshot', sessionId, snapshot);
    if (!prepared.ok) return prepared;
    return this.#life.run(sessionId, async () => {
      const stored = this.#sessions.get(sessionId);
      if (stored === undefined) return notFound(sessionId);
      const { version, dataText } = prepared.value;
      if (version > stored.events.length) {
        return snapshotAhead(sessionId, version, stored.events.length);
      }
      if (stored.snapshot !== undefined && stored.snapshot.version > version) {
        return { ok: true, value: false };
      }
      stored.snapshot = { version, schemaVersion: this.#schema.version, dataText };
      return { ok: true, value: true };
    });
  }

  /** {@inheritDoc SessionStore.list} */
  async list(options?: ListOptions): Promise<Result<readonly string[], StoreError>> {
    const checked = checkListOptions('MemoryStore.list', options);
    return this.#life.run(undefined, async () => {
      const ids = pageOf(sortIds([...this.#sessions.keys()]), checked);
      return { ok: true, value: Object.freeze(ids) };
    });
  }

  /** {@inheritDoc SessionStore.delete} */
  async delete(sessionId: string): Promise<Result<boolean, StoreError>> {
    const id = checkSessionId(sessionId);
    if (!id.ok) return id;
    return this.#life.run(sessionId, async () => ({
      ok: true,
      value: this.#sessions.delete(sessionId),
    }));
  }

  /** {@inheritDoc SessionStore.close} */
  async close(): Promise<void> {
    await this.#life.close();
  }
}
