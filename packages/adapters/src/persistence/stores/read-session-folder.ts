import type { FileHandle } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Err, Result } from '@plankit/core';
import { deepFreeze } from '@plankit/core/internal-unstable';
import { type LogScan, parseLogLine, scanLog } from './event-log.ts';
import { errorCode, openLogToRead, readRange } from './file-io.ts';
import { isHashedFolderName, SESSION_ID_FILE, sessionFolderName } from './session-folder-name.ts';
import type { LoadedSession, StoredEvent, StoredSnapshot, StoreIssue } from './session-store.ts';
import { parseSnapshotFile, type SnapshotFile } from './snapshot-file.ts';
import { type CheckedSnapshotSchema, loadSnapshot } from './snapshot-schema.ts';
import type { StoreError } from './store-error.ts';
import { fail, notFound } from './store-failures.ts';

/** A session folder's event log. */
export const LOG = 'events.jsonl';
/** A session folder's snapshot. */
export const SNAPSHOT = 'snapshot.jsonl';
/** Why a folder where the snapshot file should be is ignored. */
export const FOLDER_SNAPSHOT = 'it is a folder, not a file';

/** Where a `FileStore` keeps its sessions, and the snapshot schema it reads them with. */
export interface StoreFolders {
  /** The store's folder, absolute. */
  readonly directory: string;
  /** `<directory>/sessions`, where each session has its folder. */
  readonly sessions: string;
  readonly schema: CheckedSnapshotSchema;
}

/** The `corrupt` failure of a session whose log is damaged. */
export function corruptLog(sessions: string, sessionId: string, reason: string): Err<StoreError> {
  return fail(
    'corrupt',
    sessionId,
    `Session ${sessionId}'s log ${path.join(sessions, sessionFolderName(sessionId), LOG)} is damaged: ${reason}. Acknowledged events cannot be read safely; restore its folder from a backup.`,
  );
}

/** The issue of a torn last append, which a load ignores. */
export function tornIssue(sessionId: string, bytes: number): StoreIssue {
  return {
    code: 'torn_tail',
    message: `Ignored the last ${bytes} bytes of session ${sessionId}'s log: an append that was never acknowledged (a crash, or an append still in progress).`,
  };
}

/** The issue of an unsound snapshot, which a load ignores. */
function snapshotIssue(sessionId: string, reason: string): StoreIssue {
  return {
    code: 'snapshot_corrupt',
    message: `Ignored session ${sessionId}'s snapshot because ${reason}; the session was read from its log.`,
  };
}

/**
 * Reads session `sessionId` from its folder: its snapshot (when `useSnapshot` and it is sound),
 * then the log's events after it. A torn last append and an unsound snapshot are issues; a
 * damaged log is `corrupt`, an empty or missing one `not_found`.
 */
export async function readSessionFolder(
  store: StoreFolders,
  sessionId: string,
  useSnapshot: boolean,
): Promise<Result<LoadedSession, StoreError>> {
  const folder = path.join(store.sessions, sessionFolderName(sessionId));
  const owner = await checkOwner(store.directory, folder, sessionId);
  if (owner !== undefined) return owner;
  const issues: StoreIssue[] = [];
  // The snapshot first: it is only ever saved for events already in the log, so a log read
  // afterwards holds at least the events it covers.
  let file: SnapshotFile | undefined;
  if (useSnapshot) {
    const stored = await readSnapshotFile(folder, sessionId);
    if (typeof stored === 'string') issues.push(snapshotIssue(sessionId, stored));
    else file = stored;
  }
  const handle = await openLogToRead(path.join(folder, LOG));
  if (handle === undefined) return notFound(sessionId);
  let scan: LogScan;
  try {
    const size = (await handle.stat()).size;
    scan =
      (file && (await readAfter(handle, size, file))) ??
      scanLog(await readRange(handle, 0, size), 1, true);
  } finally {
    await handle.close();
  }
  if (scan.corrupt !== undefined) return corruptLog(store.sessions, sessionId, scan.corrupt);
  const version = scan.version ?? 0;
  if (version === 0) return notFound(sessionId);
  if (scan.tornBytes > 0) issues.push(tornIssue(sessionId, scan.tornBytes));
  let snapshot: StoredSnapshot | null = null;
  if (file !== undefined) {
    if (file.header.version > version) {
      issues.push(
        snapshotIssue(
          sessionId,
          `it is of version ${file.header.version}, ahead of the log's ${version}`,
        ),
      );
    } else {
      const { version: at, schemaVersion } = file.header;
      const restored = loadSnapshot(at, schemaVersion, file.data, store.schema, sessionId);
      if (!restored.ok) return restored;
      snapshot = restored.value;
    }
  }
  const after = snapshot?.version ?? 0;
  const events: StoredEvent[] = [];
  for (const line of scan.lines) {
    if (line.seq <= after) continue;
    events.push({ sequence: line.seq, type: line.type, at: line.at, data: line.data });
  }
  const loaded: LoadedSession = { sessionId, version, snapshot, events, issues };
  return { ok: true, value: deepFreeze(loaded) };
}

/**
 * Reads the events after a snapshot from the offset it recorded. `undefined` when the offset
 * cannot be trusted (not a line boundary, or not followed by the next event): the caller
 * then reads the whole log.
 */
async function readAfter(
  handle: FileHandle,
  size: number,
  file: SnapshotFile,
): Promise<LogScan | undefined> {
  const { offset, version } = file.header;
  if (offset === null || offset === 0 || offset > size) return undefined;
  const bytes = await readRange(handle, offset - 1, size);
  if (bytes[0] !== 0x0a) return undefined;
  const rest = bytes.subarray(1);
  if (rest.length > 0) {
    const stop = rest.indexOf(0x0a);
    const next = stop === -1 ? undefined : parseLogLine(rest, 0, stop);
    if (next?.seq !== version + 1) return undefined;
  }
  return scanLog(rest, version + 1, true);
}

/** The stored snapshot, or `undefined` when there is none; a string says why it is unsound. */
export async function readSnapshotFile(
  folder: string,
  sessionId: string,
): Promise<SnapshotFile | string | undefined> {
  const bytes = await readFile(path.join(folder, SNAPSHOT)).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return undefined;
    // Like any unsound snapshot: ignored, and replaced by the next one saved.
    if (errorCode(error) === 'EISDIR') return FOLDER_SNAPSHOT;
    throw error;
  });
  return bytes === undefined || typeof bytes === 'string'
    ? bytes
    : parseSnapshotFile(bytes, sessionId);
}

/**
 * A hashed folder's {@link SESSION_ID_FILE} when it names another session: the SHA-256
 * prefix collided, which no one has ever seen, but it is cheap to catch (long ids only).
 */
export async function checkOwner(
  directory: string,
  folder: string,
  sessionId: string,
): Promise<Err<StoreError> | undefined> {
  if (!isHashedFolderName(path.basename(folder))) return undefined;
  const text = await readFile(path.join(folder, SESSION_ID_FILE), 'utf8').catch(
    (error: unknown) => {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    },
  );
  if (text === undefined || text === sessionId) return undefined;
  return fail(
    'io',
    sessionId,
    `FileStore's folder ${path.basename(folder)} for session ${sessionId} in ${directory} holds another session; nothing was read or written.`,
  );
}
