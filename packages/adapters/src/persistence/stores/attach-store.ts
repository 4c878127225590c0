import { type DataType, dataTypeName, type Result, type Session } from '@plankit/core';
import { checkOptionKeys, invalidArgument, isRecord } from '@plankit/core/internal-unstable';
import { holdId, isAttached, releaseId } from './attached-ids.ts';
import { DataTypes } from './replay-rules.ts';
import { ignoredSnapshot, restore } from './restore-session.ts';
import { Attachment, type SessionAttachment } from './session-attachment.ts';
import type { SessionStore, StoreIssue } from './session-store.ts';
import { StoreError } from './store-error.ts';

/** Options of {@link attachStore}. @public */
export interface AttachStoreOptions {
  /**
   * Save a snapshot every this many events (a positive integer, or `Infinity` for never);
   * 100 by default. Snapshots only shorten loading: the log is always complete.
   */
  readonly snapshotEvery?: number | undefined;
  /**
   * Data types dispatched to the session that are not slices of their own (commands routed to
   * another slice), so a reload can replay them. The session's slices, core's planning
   * commands and the commands and data types its extensions declared are known already.
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

const OPTION_KEYS: ReadonlySet<string> = new Set(['snapshotEvery', 'dataTypes', 'onError']);

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
  if (isAttached(session)) {
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

/**
 * The caller let go of the id while the state was loading ({@link giveUpAttaching}, a load
 * past its time limit): nothing is attached, so a copy loaded after it owns the id alone.
 */
function givenUp(session: Session): Result<never, StoreError> {
  return {
    ok: false,
    error: new StoreError(
      'closed',
      `Session ${session.sessionId} was given up while its state was loading; nothing was attached.`,
      { sessionId: session.sessionId },
    ),
  };
}

/**
 * Gives up an `attachStore` of `session` still loading: the session's id is free on its bus
 * at once, and the attach, when the store answers, attaches nothing and returns `closed`.
 */
export function giveUpAttaching(session: Session): void {
  releaseId(session);
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
  if (!isAttached(session)) return givenUp(session);
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
  if (!isAttached(session)) return givenUp(session);
  const attachment = new Attachment(
    session,
    store,
    { version, snapshot, resumed: loaded.ok, issues },
    types,
    { every: snapshotEvery, onError },
  );
  return { ok: true, value: attachment };
}
