import {
  AddStep,
  ClearPlan,
  type DataType,
  dataTypeName,
  type Err,
  MarkStep,
  type Result,
  type Session,
  type SessionChange,
  type SessionCommitted,
  type SessionRolledBack,
  type SessionSnapshot,
  SetupPlan,
  snapshotFromJSON,
  snapshotToJSON,
  ToolCall,
  UpdateStep,
} from '@plankit/core';
import { SNAPSHOT_VERSION } from '@plankit/core/constants';
import { appendedLogEntries, checkOptionKeys, invalidArgument } from '@plankit/core/internal-unstable';
import { planningCommandsOf } from '@plankit/core/plan-model';
import { isRecord } from '../../is-record.ts';
import { toJsonText } from './json-data.ts';
import type {
  LoadedSession,
  NewEvent,
  SessionStore,
  StoredEvent,
  StoreIssue,
} from './session-store.ts';
import { StoreError } from './store-error.ts';

/** The event type `attachStore` logs a session commit as: data `{ changes }`. @public */
export const SESSION_COMMITTED_EVENT = 'plankit.session.committed';

/** The event type `attachStore` logs a session rollback as: data `{ slices }`. @public */
export const SESSION_ROLLED_BACK_EVENT = 'plankit.session.rolled_back';

/** Options of {@link attachStore}. @public */
export interface AttachStoreOptions {
  /**
   * Save a snapshot every this many events (a positive integer, or `Infinity` for never);
   * 100 by default. Snapshots only shorten loading: the log is always complete.
   */
  readonly snapshotEvery?: number | undefined;
  /**
   * Data types dispatched to the session that are not slices of their own (commands routed to
   * another slice), so a reload can replay them. The session's slices and core's planning
   * commands are known already.
   */
  readonly dataTypes?: readonly DataType[] | undefined;
  /**
   * Called for each failure in the background: the one that stops persistence (also kept in
   * {@link SessionAttachment.failure}: a failed append, `data_type_unknown`, or
   * `event_invalid` for a change a reload could not replay, which is never appended) and
   * failed snapshots, which do not.
   */
  readonly onError?: ((error: StoreError) => void) | undefined;
}

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

const OPTION_KEYS: ReadonlySet<string> = new Set(['snapshotEvery', 'dataTypes', 'onError']);
// Two attachments of one session would append every change twice.
const attached = new WeakSet<Session>();
// The attached session of each id, per bus: an attachment tells its session's commits from
// others' by id, so a bus carries at most one attached session of an id.
const attachedIds = new WeakMap<object, Map<string, Session>>();

/** Takes `session`'s id on its bus, or the `busy` error when another session holds it. */
function holdId(session: Session): StoreError | undefined {
  const { bus, sessionId } = session;
  let ids = attachedIds.get(bus);
  if (ids === undefined) {
    ids = new Map();
    attachedIds.set(bus, ids);
  }
  if (ids.has(sessionId)) {
    return new StoreError(
      'busy',
      `Another live Session with id ${sessionId} is attached to a store on this bus; each would log the other's commits. Detach it (or use one bus per session) before attaching this one.`,
      { sessionId, field: 'session' },
    );
  }
  ids.set(sessionId, session);
  attached.add(session);
  return undefined;
}

/** Lets go of what {@link holdId} took. */
function releaseId(session: Session): void {
  attached.delete(session);
  const ids = attachedIds.get(session.bus);
  if (ids?.get(session.sessionId) === session) ids.delete(session.sessionId);
}

// The planning commands write the plan slice, not one of their own; so do the commands the
// planning extensions declare, which core records on the session as the tools register them.
const PLANNING_COMMANDS: readonly DataType[] = [
  SetupPlan,
  AddStep,
  UpdateStep,
  MarkStep,
  ClearPlan,
];

interface CheckedOptions {
  readonly snapshotEvery: number;
  readonly dataTypes: readonly DataType[];
  readonly onError: (error: StoreError) => void;
}

function checkOptions(options: AttachStoreOptions): CheckedOptions {
  if (!isRecord(options)) throw invalidArgument('attachStore', 'options', 'must be an object');
  checkOptionKeys('attachStore', options, OPTION_KEYS);
  const { snapshotEvery = 100, dataTypes = [], onError = () => {} } = options as AttachStoreOptions;
  if (
    typeof snapshotEvery !== 'number' ||
    !(Number.isSafeInteger(snapshotEvery) || snapshotEvery === Number.POSITIVE_INFINITY) ||
    snapshotEvery < 1
  ) {
    throw invalidArgument(
      'attachStore',
      'options.snapshotEvery',
      'must be a positive integer or Infinity',
    );
  }
  if (!Array.isArray(dataTypes))
    throw invalidArgument('attachStore', 'options.dataTypes', 'must be an array');
  for (const [index, dataType] of dataTypes.entries()) {
    try {
      dataTypeName(dataType);
    } catch {
      throw invalidArgument(
        'attachStore',
        `options.dataTypes[${index}]`,
        'must be a data type (defineDataType)',
      );
    }
  }
  if (typeof onError !== 'function')
    throw invalidArgument('attachStore', 'options.onError', 'must be a function');
  return { snapshotEvery, dataTypes, onError: onError as (error: StoreError) => void };
}

function checkSession(session: Session): void {
  const candidate = session as Partial<Session> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.snapshot !== 'function' ||
    typeof candidate.dispatch !== 'function' ||
    typeof candidate.bus?.subscribe !== 'function'
  ) {
    throw invalidArgument('attachStore', 'session', 'must be a Session');
  }
  if (attached.has(session)) {
    throw invalidArgument('attachStore', 'session', 'is already attached; detach it first');
  }
  if (session.snapshot().revision !== 0) {
    throw invalidArgument(
      'attachStore',
      'session',
      'must be fresh (revision 0): register reducers, attach, then dispatch',
    );
  }
}

function failure(
  code: StoreError['code'],
  sessionId: string,
  message: string,
  cause?: unknown,
): Err<StoreError> {
  return { ok: false, error: new StoreError(code, message, { sessionId, cause }) };
}

/**
 * Resolves data type names for replay: the session's slices, the given types, then the
 * commands the session's planning extensions declared.
 */
class DataTypes {
  readonly #session: Session;
  readonly #extra = new Map<string, DataType>();

  constructor(session: Session, extra: readonly DataType[]) {
    this.#session = session;
    for (const dataType of [...PLANNING_COMMANDS, ...extra])
      this.#extra.set(dataTypeName(dataType), dataType);
  }

  get(name: string): DataType | undefined {
    return (
      this.#session.sliceTypes().get(name) ??
      this.#extra.get(name) ??
      planningCommandsOf(this.#session).get(name)
    );
  }
}

type Slices = SessionSnapshot['slices'];

// Messages name values by a short excerpt: the refusal text must stay short.
const MAX_PROBLEM = 600;
const short = (text: string): string =>
  text.length > MAX_PROBLEM ? `${text.slice(0, MAX_PROBLEM)}...` : text;

/**
 * Reads `slices` as a rollback event is read: through `snapshotFromJSON`, so every value must
 * satisfy its slice's schema and whatever else core checks of a restored state (the plan
 * invariants). Commits and rollbacks are held to these same rules, on write and on replay.
 */
function readSlices(session: Session, slices: unknown): Result<SessionSnapshot, Error> {
  return snapshotFromJSON(
    {
      format: 'plankit.session-snapshot',
      version: SNAPSHOT_VERSION,
      sessionId: session.sessionId,
      revision: 0,
      slices,
    },
    session,
  );
}

const LOG = dataTypeName(ToolCall);

/** The values a commit put into each slice: those not in the slice, by identity, before. */
function changedValues(before: Slices, after: Slices): Record<string, readonly unknown[]> {
  const changed: Record<string, readonly unknown[]> = {};
  for (const name of Object.keys(after)) {
    // The tool-call log only grows by appends: take the new entries from core, so a commit
    // costs O(change) however long the log (reading the slice would build it whole).
    const appended = name === LOG ? appendedLogEntries(before, after) : undefined;
    if (appended !== undefined) {
      if (appended.length > 0)
        Object.defineProperty(changed, name, { value: appended, enumerable: true });
      continue;
    }
    const next = after[name] ?? [];
    const previous = before[name];
    if (next === previous) continue;
    const values: unknown[] = [];
    // By index: reducers keep the values they leave alone (append, replaceLatest, upsertBy).
    for (let i = 0; i < next.length; i++) if (next[i] !== previous?.[i]) values.push(next[i]);
    if (values.length > 0)
      Object.defineProperty(changed, name, { value: values, enumerable: true });
  }
  return changed;
}

/** Why one change of a commit (as stored: JSON data) does not match its data type's schema. */
function changeProblem(
  change: unknown,
  index: number,
  types: DataTypes,
): { readonly problem: string } | { readonly dataType: DataType; readonly value: unknown } {
  if (!isRecord(change) || typeof change['dataType'] !== 'string' || !('value' in change)) {
    return { problem: `change ${index} is not { dataType, value }` };
  }
  const name = change['dataType'];
  const dataType = types.get(name);
  if (dataType === undefined) {
    return {
      problem: `data type ${name} is unknown to the session: register its reducer, or pass it in options.dataTypes`,
    };
  }
  const value = change['value'];
  const check = dataType.safeParse(value);
  if (!check.success) {
    const issue = check.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return {
      problem: `change ${index} (${name}) does not match its schema${where}: ${issue?.message ?? 'invalid'}`,
    };
  }
  return { dataType, value };
}

/** Why the values a commit produced could not be read back as slices, if they could not. */
function producedProblem(session: Session, before: Slices, after: Slices): string | undefined {
  const changed = changedValues(before, after);
  if (Object.keys(changed).length === 0) return undefined;
  // As stored: a later rollback or snapshot holds them as JSON data.
  const text = toJsonText(changed, 'slices', {});
  if ('problem' in text) return `${text.problem.path} ${text.problem.rule}`;
  const read = readSlices(session, JSON.parse(text.text));
  return read.ok ? undefined : `it produced a value it could not read back: ${read.error.message}`;
}

/** Applies one stored event to the session; why it could not be, if it could not. */
function replay(session: Session, event: StoredEvent, types: DataTypes): string | undefined {
  // Stores refuse such times on append; one a host's store gives back must not make the
  // session's dispatch throw.
  if (!Number.isFinite(event.at)) return `its time is ${event.at}, not a finite number`;
  const start = session.snapshot();
  const before = start.revision;
  const { data } = event;
  if (event.type === SESSION_COMMITTED_EVENT) {
    const changes = isRecord(data) ? data['changes'] : undefined;
    if (!Array.isArray(changes) || changes.length === 0) return 'its data has no changes';
    const checked: { dataType: DataType; value: unknown }[] = [];
    for (const [index, change] of changes.entries()) {
      const result = changeProblem(change, index, types);
      if ('problem' in result) return result.problem;
      checked.push(result);
    }
    for (const { dataType, value } of checked) {
      const outcome = session.dispatch(dataType, value, { now: event.at });
      if (!outcome.ok) return outcome.error.message;
    }
    const problem = producedProblem(session, start.slices, session.snapshot().slices);
    if (problem !== undefined) return problem;
  } else if (event.type === SESSION_ROLLED_BACK_EVENT) {
    const slices = isRecord(data) ? data['slices'] : undefined;
    const snapshot = readSlices(session, slices);
    if (!snapshot.ok) return snapshot.error.message;
    const outcome = session.rollback(snapshot.value, { now: event.at });
    if (!outcome.ok) return outcome.error.message;
  } else {
    return `its type ${event.type} is not one attachStore writes`;
  }
  // The original commit changed the session, so an identical replay must too.
  if (session.snapshot().revision === before)
    return 'replaying it changed nothing (is a reducer impure?)';
  return undefined;
}

function ignoredSnapshot(sessionId: string, reason: string): StoreIssue {
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
async function restore(
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

/** Persists a session's changes, in revision order, one append at a time. */
class Attachment implements SessionAttachment {
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

/**
 * Attaches a fresh session (reducers registered, nothing dispatched yet) to a store: restores
 * the state the store holds for its id (its snapshot, then the events after it), then appends
 * every change in the background, with a snapshot every `snapshotEvery` events. Call
 * {@link SessionAttachment.flush} before telling anyone a change is saved.
 *
 * Commits and rollbacks are replayed by one set of rules (each value against its data type's
 * schema, and what a change put into the slices read back with `snapshotFromJSON`), and each
 * change is checked by those rules before it is appended: one that fails is not stored, and
 * persistence stops with `event_invalid`.
 *
 * An attachment tells its session's commits from others' on the bus by session id, so a bus
 * carries at most one attached session of an id: attaching a second live session with the
 * same id on the same bus, while the first is attached, is refused with `busy` (field
 * `session`), and nothing is read or written. Commits of a session that shares the id and bus
 * without being attached never reach the attached session's log.
 *
 * @example
 * ```ts
 * const session = new Session({ sessionId: 'job-42' });
 * const tools = createPlanningTools(session);
 * const attached = await attachStore(session, new FileStore());
 * if (!attached.ok) throw attached.error;
 * await invokeTool(tools.planning_setup_plan, args, { session });
 * await attached.value.flush();
 * ```
 * @returns the attachment, or why the state could not be restored (`replay_failed`,
 *   `corrupt`, `unreachable`, ...) or the session not attached (`busy`: another session of
 *   its id is attached on its bus); on failure, discard the session
 * @throws PlankitError on a programmer error: a session that is not fresh, bad options
 * @public
 */
export async function attachStore(
  session: Session,
  store: SessionStore,
  options: AttachStoreOptions = {},
): Promise<Result<SessionAttachment, StoreError>> {
  checkSession(session);
  if (typeof store !== 'object' || store === null || typeof store.append !== 'function') {
    throw invalidArgument('attachStore', 'store', 'must be a SessionStore');
  }
  const { snapshotEvery, dataTypes, onError } = checkOptions(options);
  const types = new DataTypes(session, dataTypes);
  const issues: StoreIssue[] = [];
  const held = holdId(session);
  if (held !== undefined) return { ok: false, error: held };
  try {
    return await load(session, store, types, issues, snapshotEvery, onError);
  } catch (error) {
    releaseId(session);
    throw error;
  }
}

async function load(
  session: Session,
  store: SessionStore,
  types: DataTypes,
  issues: StoreIssue[],
  snapshotEvery: number,
  onError: (error: StoreError) => void,
): Promise<Result<SessionAttachment, StoreError>> {
  let loaded = await store.load(session.sessionId);
  if (!loaded.ok && loaded.error.code === 'migration_failed') {
    // The log is complete without the snapshot.
    issues.push(ignoredSnapshot(session.sessionId, loaded.error.message));
    loaded = await store.load(session.sessionId, { snapshot: false });
  }
  if (!loaded.ok && loaded.error.code !== 'not_found') {
    releaseId(session);
    return loaded;
  }
  if (session.snapshot().revision !== 0) {
    throw invalidArgument(
      'attachStore',
      'session',
      'changed while its state was loading; dispatch after attachStore resolves',
    );
  }
  let version = 0;
  let snapshot = 0;
  if (loaded.ok) {
    issues.push(...loaded.value.issues);
    const restored = await restore(session, store, loaded.value, types, issues);
    if (!restored.ok) {
      releaseId(session);
      return restored;
    }
    version = restored.value;
    const ignored = issues.some((issue) => issue.code === 'snapshot_ignored');
    snapshot = ignored ? 0 : (loaded.value.snapshot?.version ?? 0);
  }
  const attachment = new Attachment(
    session,
    store,
    { version, snapshot, resumed: loaded.ok, issues },
    types,
    { every: snapshotEvery, onError },
  );
  return { ok: true, value: attachment };
}
