import {
  type Result,
  type Session,
  type SessionChange,
  type SessionCommitted,
  type SessionRolledBack,
  type SessionSnapshot,
  snapshotToJSON,
} from '@plankit/core';
import { releaseId } from './attached-ids.ts';
import { toJsonText } from './json-data.ts';
import {
  changeProblem,
  type DataTypes,
  producedProblem,
  readSlices,
  SESSION_COMMITTED_EVENT,
  SESSION_ROLLED_BACK_EVENT,
  short,
} from './replay-rules.ts';
import { failure } from './restore-session.ts';
import type { NewEvent, SessionStore, StoreIssue } from './session-store.ts';
import { StoreError } from './store-error.ts';

/**
 * A session attached to a store by {@link attachStore}: every change is appended in the
 * background; {@link SessionAttachment.flush} says when it is saved.
 *
 * @public
 */
export interface SessionAttachment {
  /** The attached session. */
  readonly session: Session;
  /** The store version acknowledged so far: changes up to it are saved. */
  readonly version: number;
  /** True when the store held the session and its state was restored. */
  readonly resumed: boolean;
  /** What loading survived (a torn log tail, an ignored snapshot). */
  readonly issues: readonly StoreIssue[];
  /** The error that stopped persistence, if one did; later changes stay in memory only. */
  readonly failure: StoreError | undefined;
  /**
   * Waits until every change made before the call is acknowledged by the store (and any
   * snapshot due by then is saved, or reported to `onError`).
   *
   * @returns the acknowledged version, or the error that stopped persistence
   */
  flush(): Promise<Result<number, StoreError>>;
  /**
   * Flushes, then saves a snapshot of the session as it was at the call.
   *
   * @returns the version the snapshot describes, or why it could not be saved
   */
  checkpoint(): Promise<Result<number, StoreError>>;
  /**
   * Stops persisting further changes, then flushes those made before the call.
   *
   * @returns the acknowledged version, or the error that stopped persistence
   */
  detach(): Promise<Result<number, StoreError>>;
}

interface Entry {
  readonly version: number;
  readonly event: NewEvent;
  /** The session right after this event, when a snapshot is due here. */
  readonly snapshot: SessionSnapshot | undefined;
}

interface Waiter {
  readonly target: number;
  readonly resolve: (result: Result<number, StoreError>) => void;
}

/** Persists a session's changes, in revision order, one append at a time. */
export class Attachment implements SessionAttachment {
  readonly session: Session;
  readonly resumed: boolean;
  readonly issues: readonly StoreIssue[];
  readonly #store: SessionStore;
  readonly #types: DataTypes;
  readonly #every: number;
  readonly #onError: (error: StoreError) => void;
  readonly #unsubscribe: (() => void)[];
  #version: number;
  // The version the last entry handed to the queue will have.
  #enqueued: number;
  #lastSnapshot: number;
  #nextRevision: number;
  // The session as the last commit or rollback handler saw it: the state before the next.
  #seen: SessionSnapshot;
  readonly #early = new Map<number, () => Entry | StoreError>();
  #queue: Entry[] = [];
  #writing = false;
  #failure: StoreError | undefined;
  #waiters: Waiter[] = [];

  constructor(
    session: Session,
    store: SessionStore,
    loaded: { version: number; snapshot: number; resumed: boolean; issues: readonly StoreIssue[] },
    types: DataTypes,
    options: { every: number; onError: (error: StoreError) => void },
  ) {
    this.session = session;
    this.#store = store;
    this.#types = types;
    this.#every = options.every;
    this.#onError = options.onError;
    this.resumed = loaded.resumed;
    this.issues = Object.freeze([...loaded.issues]);
    this.#version = loaded.version;
    this.#enqueued = loaded.version;
    this.#lastSnapshot = loaded.snapshot;
    this.#seen = session.snapshot();
    this.#nextRevision = this.#seen.revision + 1;
    const { bus, sessionId } = session;
    // A commit our session has not reached is another session's that shares our id and bus
    // (one not attached, or attached elsewhere): ours publish after their state is set.
    const foreign = (event: { sessionId: string; revision: number }): boolean =>
      event.sessionId !== sessionId || event.revision > session.snapshot().revision;
    this.#unsubscribe = [
      bus.subscribe('SessionCommitted', (event) => {
        if (foreign(event)) return;
        const build = this.#committed(event);
        this.#seen = session.snapshot();
        this.#accept(event.revision, build);
      }),
      bus.subscribe('SessionRolledBack', (event) => {
        if (foreign(event)) return;
        const build = this.#rolledBack(event);
        this.#seen = session.snapshot();
        this.#accept(event.revision, build);
      }),
    ];
  }

  get version(): number {
    return this.#version;
  }

  get failure(): StoreError | undefined {
    return this.#failure;
  }

  flush(): Promise<Result<number, StoreError>> {
    if (this.#failure !== undefined) return Promise.resolve({ ok: false, error: this.#failure });
    const target = this.#enqueued;
    if (this.#version >= target) return Promise.resolve({ ok: true, value: this.#version });
    return new Promise((resolve) => this.#waiters.push({ target, resolve }));
  }

  async checkpoint(): Promise<Result<number, StoreError>> {
    const snapshot = this.session.snapshot();
    const current = snapshot.revision === this.#nextRevision - 1;
    const flushed = await this.flush();
    if (!flushed.ok || !current || flushed.value === 0) return flushed;
    const target = this.#enqueuedAt(snapshot.revision);
    const saved = await this.#store.saveSnapshot(this.session.sessionId, {
      version: target,
      data: snapshotToJSON(snapshot),
    });
    return saved.ok ? { ok: true, value: target } : saved;
  }

  detach(): Promise<Result<number, StoreError>> {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    releaseId(this.session);
    return this.flush();
  }

  // The version of the entry for the current revision, which flush has just acknowledged.
  #enqueuedAt(revision: number): number {
    return this.#enqueued - (this.#nextRevision - 1 - revision);
  }

  #committed(event: SessionCommitted): () => Entry | StoreError {
    const { sessionId } = this.session;
    // Checked now, not when a reload fails: a commit that cannot be replayed must not be stored.
    for (const change of event.changes) {
      if (this.#types.get(change.dataType) === undefined) {
        const error = new StoreError(
          'data_type_unknown',
          `Session ${sessionId} committed data type ${change.dataType}, which is neither a slice nor in options.dataTypes, so a reload could not replay it; persistence stopped.`,
          { sessionId, field: 'options.dataTypes' },
        );
        return () => error;
      }
    }
    const snapshot = this.#snapshotIfCurrent(event.revision);
    const stored = this.#replayable(event, snapshot);
    if (stored instanceof StoreError) return () => stored;
    return () =>
      this.#entry(
        { type: SESSION_COMMITTED_EVENT, at: event.at, data: { changes: stored } },
        snapshot,
      );
  }

  /**
   * The changes of a commit as the store will hold them, checked by the rules replay applies:
   * each value against its data type's schema, and the values the commit put into the
   * session's slices as a rollback's are read. A commit that fails them is refused here, so
   * the log never holds an event a reload would stop at.
   */
  #replayable(
    event: SessionCommitted,
    after: SessionSnapshot | undefined,
  ): readonly SessionChange[] | StoreError {
    const text = toJsonText(event.changes, 'changes');
    // The store refuses it with the path and the rule.
    if ('problem' in text) return event.changes;
    const changes = JSON.parse(text.text) as SessionChange[];
    let problem: string | undefined;
    for (const [index, change] of changes.entries()) {
      const result = changeProblem(change, index, this.#types);
      if ('problem' in result) {
        problem = result.problem;
        break;
      }
    }
    if (problem === undefined) {
      // The state before and after this commit, when this handler sees both; a bus handler
      // that dispatched from inside another one hides them: then the whole state is checked.
      const before = this.#seen.revision === event.revision - 1 ? this.#seen : undefined;
      problem =
        before !== undefined && after !== undefined
          ? producedProblem(this.session, before.slices, after.slices)
          : producedProblem(this.session, {}, this.session.snapshot().slices);
    }
    if (problem === undefined) return changes;
    const { sessionId } = this.session;
    return new StoreError(
      'event_invalid',
      `Session ${sessionId} committed a change a reload could not replay (${short(problem)}), so it was not stored; persistence stopped.`,
      { sessionId, field: 'changes' },
    );
  }

  #rolledBack(event: SessionRolledBack): () => Entry | StoreError {
    const snapshot = this.#snapshotIfCurrent(event.revision);
    const { sessionId } = this.session;
    if (snapshot === undefined) {
      const error = new StoreError(
        'replay_failed',
        `Session ${sessionId} changed again while its rollback to revision ${event.restoredRevision} was being published (a bus handler dispatched), so the restored state cannot be recorded; persistence stopped.`,
        { sessionId },
      );
      return () => error;
    }
    // Replay reads the restored state with snapshotFromJSON: check it the same way now.
    const text = toJsonText(snapshot.slices, 'slices');
    const read = 'problem' in text ? undefined : readSlices(this.session, JSON.parse(text.text));
    if (read !== undefined && !read.ok) {
      const error = new StoreError(
        'event_invalid',
        `Session ${sessionId} rolled back to a state a reload could not replay (${short(read.error.message)}), so it was not stored; persistence stopped.`,
        { sessionId, field: 'slices' },
      );
      return () => error;
    }
    return () =>
      this.#entry(
        { type: SESSION_ROLLED_BACK_EVENT, at: event.at, data: { slices: snapshot.slices } },
        snapshot,
      );
  }

  /** The session now, if it is still at `revision` (a handler may have changed it since). */
  #snapshotIfCurrent(revision: number): SessionSnapshot | undefined {
    const snapshot = this.session.snapshot();
    return snapshot.revision === revision ? snapshot : undefined;
  }

  #entry(event: NewEvent, snapshot: SessionSnapshot | undefined): Entry {
    const version = this.#enqueued + 1;
    const due = snapshot !== undefined && version - this.#lastSnapshot >= this.#every;
    if (due) this.#lastSnapshot = version;
    return { version, event, snapshot: due ? snapshot : undefined };
  }

  /**
   * Takes the change of `revision`. A handler that dispatches from inside another handler
   * makes later revisions arrive first: they wait here until the gap is filled.
   */
  #accept(revision: number, build: () => Entry | StoreError): void {
    if (this.#failure !== undefined || revision < this.#nextRevision) return;
    this.#early.set(revision, build);
    for (
      let next = this.#early.get(this.#nextRevision);
      next !== undefined;
      next = this.#early.get(this.#nextRevision)
    ) {
      this.#early.delete(this.#nextRevision);
      this.#nextRevision++;
      const entry = next();
      if (entry instanceof StoreError) {
        this.#fail(entry);
        return;
      }
      this.#enqueued = entry.version;
      this.#queue.push(entry);
    }
    void this.#pump();
  }

  async #pump(): Promise<void> {
    if (this.#writing) return;
    this.#writing = true;
    try {
      while (this.#failure === undefined && this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        const appended = await this.#call(() =>
          this.#store.append(
            this.session.sessionId,
            this.#version,
            batch.map((entry) => entry.event),
          ),
        );
        if (!appended.ok) {
          this.#fail(appended.error);
          return;
        }
        this.#version = appended.value;
        const due = batch.findLast((entry) => entry.snapshot !== undefined);
        if (due?.snapshot !== undefined) {
          const saved = await this.#call(() =>
            this.#store.saveSnapshot(this.session.sessionId, {
              version: due.version,
              data: snapshotToJSON(due.snapshot as SessionSnapshot),
            }),
          );
          if (!saved.ok) this.#report(saved.error);
        }
        // After the snapshot, so a flush also means "the snapshot due by now is saved".
        this.#settle();
      }
    } finally {
      this.#writing = false;
    }
  }

  /** Calls the store; a rejection (a store's programmer error) becomes an `io` failure. */
  async #call<T>(call: () => Promise<Result<T, StoreError>>): Promise<Result<T, StoreError>> {
    try {
      return await call();
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return failure('io', this.session.sessionId, `The store rejected a call: ${reason}`, cause);
    }
  }

  #settle(): void {
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiting) {
      if (waiter.target <= this.#version) waiter.resolve({ ok: true, value: this.#version });
      else this.#waiters.push(waiter);
    }
  }

  #fail(error: StoreError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#queue = [];
    this.#early.clear();
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    releaseId(this.session);
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiting) waiter.resolve({ ok: false, error });
    this.#report(error);
  }

  #report(error: StoreError): void {
    try {
      this.#onError(error);
    } catch {
      // A throwing callback must not break persistence of later changes.
    }
  }
}
