import { randomUUID } from 'node:crypto';
import {
  chmod,
  type FileHandle,
  link,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
} from 'node:fs/promises';
import path from 'node:path';
import type { Result } from '@plankit/core';
import { checkOptionKeys, invalidArgument } from '@plankit/core/internal-unstable';
import { formatLogLines, type LogScan } from './event-log.ts';
import { errorCode, openLogToRead, syncDirectory, writeAll, writeThenRename } from './file-io.ts';
import { acquireFileLock, type FileLock, LockPool, removeLeftovers } from './file-lock.ts';
import { type GroupCommit, groupCommitOf, syncAppend } from './group-commit.ts';
import { type KnownTail, KnownTails, knownTail, readTail, sameFile } from './log-tail.ts';
import { FOLDER_MODE, makePrivateFolders, writePrivateFile } from './private-files.ts';
import {
  checkOwner,
  corruptLog,
  FOLDER_SNAPSHOT,
  LOG,
  readSessionFolder,
  readSnapshotFile,
  SNAPSHOT,
  type StoreFolders,
} from './read-session-folder.ts';
import {
  isHashedFolderName,
  SESSION_ID_FILE,
  sessionFolderName,
  sessionIdOfFolder,
  sessionIdOfHashedFolder,
} from './session-folder-name.ts';
import type {
  ListOptions,
  LoadedSession,
  LoadOptions,
  NewEvent,
  SessionStore,
  SnapshotInput,
} from './session-store.ts';
import { formatSnapshotFile } from './snapshot-file.ts';
import {
  type CheckedSnapshotSchema,
  checkSnapshotSchema,
  type SnapshotSchema,
} from './snapshot-schema.ts';
import type { StoreError } from './store-error.ts';
import { fail, notFound, snapshotAhead, versionConflict } from './store-failures.ts';
import {
  checkAppend,
  checkListOptions,
  checkLoadOptions,
  checkSessionId,
  checkSnapshot,
  type PreparedEvent,
  pageOf,
  sortIds,
} from './store-input.ts';
import { StoreLifecycle } from './store-lifecycle.ts';

/** Options of {@link FileStore}. @public */
export interface FileStoreOptions {
  /** The store's folder; `.plankit` in the working directory (at construction) by default. */
  readonly directory?: string | undefined;
  /** The schema version stamped on snapshots, and migrations for older ones. */
  readonly snapshotSchema?: SnapshotSchema | undefined;
  /** How long a write waits for another writer's lock on the session, in ms; 10,000 by default. */
  readonly lockTimeoutMs?: number | undefined;
  /**
   * Group commit: appends to different sessions that are written at about the same time have
   * their `fdatasync`s issued together, and each is acknowledged only once every sync of its
   * group has returned. Each session still has its own file, so each append still gets its own
   * sync; what a group shares is the file system's journal commit and the drive's cache flush
   * (ext4 and XFS batch concurrent syncs). A failed sync fails every append of its group, and
   * each of their logs is cut back to where the append began. `maxDelayMs` (0 to 1,000; 0 by
   * default) is how long a group waits for more appends after its first; with 0 a group is what
   * was written in the same turn of the event loop or while the previous group synced. Off by
   * default. A session's first append (which creates its log) is synced on its own.
   */
  readonly groupCommit?: boolean | { readonly maxDelayMs?: number | undefined } | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'directory',
  'snapshotSchema',
  'lockTimeoutMs',
  'groupCommit',
]);
const DEFAULT_DIRECTORY = '.plankit';

/**
 * The embedded {@link SessionStore}: one folder per session under `<directory>/sessions`,
 * named by a reversible, lower-case encoding of the session id (`a@b.c` is `a%40b.c`, `Job`
 * is `+job`; a long one is a prefix and a hash, with the id in a `session-id` file), so ids
 * that differ only in case stay apart on case-insensitive file systems. Each folder holds an
 * append-only JSONL event log (one `fdatasync` per append) and the latest
 * snapshot (written to a temporary file, synced, then renamed). Writers to one session take
 * its lock (a directory moved into place by an atomic rename; prepared ones wait in
 * `<directory>/locks` between writes), so two processes appending to the same session get one
 * success and one `conflict`. The store remembers where each log it wrote ends and reads the
 * tail again only when the log's size, inode or timestamps show that another writer touched
 * it. With `groupCommit`, appends written at about the same time are synced together and
 * acknowledged together. A torn last append is ignored and reported; a damaged snapshot falls
 * back to the log. For one machine and a local file system; call `close()` to close its open
 * logs and remove its lock directories.
 *
 * @example
 * ```ts
 * const store = new FileStore(); // ./.plankit
 * const loaded = await store.load('job-42');
 * ```
 * @public
 */
export class FileStore implements SessionStore {
  /** The store's folder, absolute. */
  readonly directory: string;
  readonly #sessions: string;
  readonly #schema: CheckedSnapshotSchema;
  readonly #lockTimeoutMs: number;
  readonly #isDefault: boolean;
  readonly #life = new StoreLifecycle('FileStore');
  // Writers of one session in this process queue here instead of polling the lock.
  readonly #queues = new Map<string, Promise<unknown>>();
  // The known tails, least recently used first; an append takes its entry out while it runs.
  readonly #tails = new KnownTails();
  readonly #locks: LockPool;
  readonly #group: GroupCommit | undefined;
  readonly #folders: StoreFolders;
  #ready: Promise<void> | undefined;

  /**
   * Creates the store; nothing is written before the first append.
   *
   * @param options - directory, snapshot schema, lock timeout and group commit; every one
   *   optional
   */
  constructor(options: FileStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw invalidArgument('new FileStore', 'options', 'must be an object');
    }
    checkOptionKeys('new FileStore', options, OPTION_KEYS, '');
    const { directory, lockTimeoutMs = 10_000 } = options;
    if (directory !== undefined && (typeof directory !== 'string' || directory.length === 0)) {
      throw invalidArgument('new FileStore', 'directory', 'must be a non-empty string');
    }
    if (typeof lockTimeoutMs !== 'number' || !Number.isFinite(lockTimeoutMs) || lockTimeoutMs < 0) {
      throw invalidArgument('new FileStore', 'lockTimeoutMs', 'must be a non-negative number');
    }
    this.directory = path.resolve(directory ?? DEFAULT_DIRECTORY);
    this.#isDefault = directory === undefined;
    this.#sessions = path.join(this.directory, 'sessions');
    // Beside sessions/, so on the same file system, and out of the way of session listings.
    this.#locks = new LockPool(path.join(this.directory, 'locks'));
    this.#schema = checkSnapshotSchema('new FileStore', options.snapshotSchema);
    this.#lockTimeoutMs = lockTimeoutMs;
    this.#group = groupCommitOf(options.groupCommit);
    this.#folders = { directory: this.directory, sessions: this.#sessions, schema: this.#schema };
  }

  /** {@inheritDoc SessionStore.load} */
  async load(sessionId: string, options?: LoadOptions): Promise<Result<LoadedSession, StoreError>> {
    const useSnapshot = checkLoadOptions('FileStore.load', options);
    const id = checkSessionId(sessionId);
    if (!id.ok) return id;
    return this.#life.run(sessionId, () =>
      this.#guard(sessionId, 'load', () =>
        readSessionFolder(this.#folders, sessionId, useSnapshot),
      ),
    );
  }

  /** {@inheritDoc SessionStore.append} */
  async append(
    sessionId: string,
    expectedVersion: number,
    events: readonly NewEvent[],
  ): Promise<Result<number, StoreError>> {
    const prepared = checkAppend('FileStore.append', sessionId, expectedVersion, events);
    if (!prepared.ok) return prepared;
    const lines = prepared.value;
    return this.#life.run(sessionId, () =>
      this.#guard(sessionId, 'append to', () =>
        this.#locked(sessionId, true, (folder) =>
          this.#appendLocked(sessionId, folder, expectedVersion, lines),
        ),
      ),
    );
  }

  /** {@inheritDoc SessionStore.saveSnapshot} */
  async saveSnapshot(
    sessionId: string,
    snapshot: SnapshotInput,
  ): Promise<Result<boolean, StoreError>> {
    const prepared = checkSnapshot('FileStore.saveSnapshot', sessionId, snapshot);
    if (!prepared.ok) return prepared;
    const { version, dataText } = prepared.value;
    return this.#life.run(sessionId, () =>
      this.#guard(sessionId, 'save a snapshot of', () =>
        this.#locked(sessionId, false, async (folder) => {
          const handle = await openLogToRead(path.join(folder, LOG));
          if (handle === undefined) return notFound(sessionId);
          let tail: LogScan;
          try {
            tail = await readTail(handle, (await handle.stat()).size);
          } finally {
            await handle.close();
          }
          if (tail.corrupt !== undefined)
            return corruptLog(this.#sessions, sessionId, tail.corrupt);
          const current = tail.version ?? 0;
          if (current === 0) return notFound(sessionId);
          if (version > current) return snapshotAhead(sessionId, version, current);
          // Keep the stored snapshot only if it is newer and sound: a damaged one is replaced.
          const existing = await readSnapshotFile(folder, sessionId);
          if (
            typeof existing === 'object' &&
            existing.header.version > version &&
            existing.header.version <= current
          ) {
            return { ok: true, value: false };
          }
          const offset = version === current ? tail.cleanEnd : null;
          const bytes = formatSnapshotFile(
            sessionId,
            version,
            this.#schema.version,
            offset,
            dataText,
          );
          // A file cannot be renamed over a folder: one in the snapshot's place goes first.
          if (existing === FOLDER_SNAPSHOT)
            await rm(path.join(folder, SNAPSHOT), { recursive: true });
          await writeThenRename(folder, '.snapshot', bytes, SNAPSHOT);
          await syncDirectory(folder);
          return { ok: true, value: true };
        }),
      ),
    );
  }

  /** {@inheritDoc SessionStore.list} */
  async list(options?: ListOptions): Promise<Result<readonly string[], StoreError>> {
    const checked = checkListOptions('FileStore.list', options);
    return this.#life.run(undefined, () =>
      this.#guard(undefined, 'list the sessions of', async () => {
        const names = await readdir(this.#sessions).catch((error: unknown) => {
          if (errorCode(error) === 'ENOENT') return [] as string[];
          throw error;
        });
        const ids = await Promise.all(
          names.map(async (name) => {
            let id = sessionIdOfFolder(name);
            if (id === 'hashed') {
              const text = await readFile(path.join(this.#sessions, name, SESSION_ID_FILE), 'utf8')
                .then((t): string | undefined => t)
                .catch(() => undefined);
              id = text === undefined ? undefined : sessionIdOfHashedFolder(name, text);
            }
            if (id === undefined) return undefined;
            const size = await stat(path.join(this.#sessions, name, LOG)).then(
              (s) => s.size,
              () => 0,
            );
            return size > 0 ? id : undefined;
          }),
        );
        const existing = ids.filter((id): id is string => id !== undefined);
        return { ok: true, value: Object.freeze(pageOf(sortIds(existing), checked)) };
      }),
    );
  }

  /** {@inheritDoc SessionStore.delete} */
  async delete(sessionId: string): Promise<Result<boolean, StoreError>> {
    const id = checkSessionId(sessionId);
    if (!id.ok) return id;
    return this.#life.run(sessionId, async () => {
      const deleted = await this.#guard(sessionId, 'delete', () =>
        this.#locked(sessionId, false, async (folder) => {
          const existed = await stat(path.join(folder, LOG)).then(
            () => true,
            () => false,
          );
          // One rename takes the session out of sight, lock included; writers waiting for the
          // lock then find no folder and start afresh.
          const trash = path.join(this.#sessions, `.trash-${randomUUID()}`);
          await this.#tails.forget(sessionId);
          await rename(folder, trash);
          await syncDirectory(this.#sessions);
          await rm(trash, { recursive: true, force: true }).catch(() => {});
          return { ok: true, value: existed };
        }),
      );
      if (!deleted.ok && deleted.error.code === 'not_found') return { ok: true, value: false };
      return deleted;
    });
  }

  /** {@inheritDoc SessionStore.close} */
  async close(): Promise<void> {
    await this.#life.close();
    await this.#tails.forgetAll();
    await this.#locks.close();
  }

  /** The append itself, holding the lock: the known tail when the log is as we left it. */
  async #appendLocked(
    sessionId: string,
    folder: string,
    expectedVersion: number,
    lines: readonly PreparedEvent[],
  ): Promise<Result<number, StoreError>> {
    const log = path.join(folder, LOG);
    const known = this.#tails.take(sessionId);
    let handle: FileHandle | undefined;
    let version: number;
    let cleanEnd: number;
    let tornBytes = 0;
    // A log that is gone or cannot be stat'ed takes the full path, which reports why.
    const now = known && (await stat(log, { bigint: true }).catch(() => undefined));
    const unchanged = known !== undefined && now !== undefined && sameFile(known, now);
    if (unchanged) {
      ({ handle, version } = known);
      cleanEnd = Number(known.size);
    } else {
      await known?.handle.close().catch(() => {});
      handle = await open(log, 'r+').catch((error: unknown) => {
        if (errorCode(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (handle === undefined) {
        version = 0;
        cleanEnd = 0;
      } else {
        let tail: LogScan;
        try {
          tail = await readTail(handle, (await handle.stat()).size);
        } catch (error) {
          await handle.close();
          throw error;
        }
        if (tail.corrupt !== undefined) {
          await handle.close();
          return corruptLog(this.#sessions, sessionId, tail.corrupt);
        }
        version = tail.version ?? 0;
        cleanEnd = tail.cleanEnd;
        tornBytes = tail.tornBytes;
      }
    }
    let keep: KnownTail | undefined;
    try {
      if (version !== expectedVersion) {
        // Nothing was written: what we know of the log still holds (none past a torn tail).
        if (unchanged) keep = known;
        else if (handle !== undefined && tornBytes === 0) {
          const stats = await handle.stat({ bigint: true });
          if (stats.size === BigInt(cleanEnd)) keep = knownTail(handle, version, stats);
        }
        return versionConflict(sessionId, version, expectedVersion);
      }
      const next = version + lines.length;
      const bytes = formatLogLines(lines, version + 1);
      if (handle === undefined) {
        await this.#createLog(folder, sessionId, bytes);
        return { ok: true, value: next };
      }
      // Cut off what a crashed append left, then write where it began.
      if (tornBytes > 0) await handle.truncate(cleanEnd);
      try {
        await writeAll(handle, bytes, cleanEnd);
      } catch (error) {
        // A short write (a full disk): leave no part of it behind.
        await handle.truncate(cleanEnd).catch(() => {});
        throw error;
      }
      // Durable alone or with a group; a failed sync cuts the write off again and throws.
      const after = await (this.#group?.sync(handle, cleanEnd) ?? syncAppend(handle, cleanEnd));
      if (after.size === BigInt(cleanEnd + bytes.length)) keep = knownTail(handle, next, after);
      return { ok: true, value: next };
    } finally {
      if (keep !== undefined) this.#tails.remember(sessionId, keep);
      else await handle?.close();
    }
  }

  /** Writes the first append of a session: complete and synced before the log exists. */
  async #createLog(folder: string, sessionId: string, bytes: Buffer): Promise<void> {
    if (isHashedFolderName(path.basename(folder))) {
      // The id goes first: a folder name that is cut and hashed cannot give it back to list().
      await writeThenRename(folder, '.id', sessionId, SESSION_ID_FILE);
      await syncDirectory(folder);
    }
    const temporary = path.join(folder, `.tmp-${randomUUID()}.jsonl`);
    try {
      await writePrivateFile(temporary, bytes, { flag: 'wx', flush: true });
      await link(temporary, path.join(folder, LOG));
    } finally {
      await unlink(temporary).catch(() => {});
    }
    await syncDirectory(folder);
    // The session folder itself may be new: make its entry durable too.
    await syncDirectory(this.#sessions);
  }

  /** Runs `write` holding the session's lock, after the writers of this process before it. */
  async #locked<T>(
    sessionId: string,
    create: boolean,
    write: (folder: string) => Promise<Result<T, StoreError>>,
  ): Promise<Result<T, StoreError>> {
    const previous = this.#queues.get(sessionId) ?? Promise.resolve();
    const turn = previous.then(async (): Promise<Result<T, StoreError>> => {
      if (create) await this.#prepareRoot();
      const folder = path.join(this.#sessions, sessionFolderName(sessionId));
      const lock: FileLock | string = await acquireFileLock(
        folder,
        this.#lockTimeoutMs,
        create,
        this.#locks,
      );
      if (lock === 'folder_missing') return notFound(sessionId);
      if (typeof lock === 'string') {
        return fail(
          'busy',
          sessionId,
          `Another writer held session ${sessionId}'s lock ${path.join(folder, 'lock')} for more than ${this.#lockTimeoutMs} ms; its owner still looks alive, so it was not broken.`,
        );
      }
      try {
        if (lock.recovered) await removeLeftovers(folder);
        const owner = await checkOwner(this.directory, folder, sessionId);
        if (owner !== undefined) return owner;
        return await write(folder);
      } finally {
        await lock.release();
      }
    });
    const settled = turn.catch(() => {});
    this.#queues.set(sessionId, settled);
    try {
      return await turn;
    } finally {
      if (this.#queues.get(sessionId) === settled) this.#queues.delete(sessionId);
    }
  }

  /** Creates the store's folders once; a new default folder gets a `.gitignore`. */
  #prepareRoot(): Promise<void> {
    this.#ready ??= (async () => {
      const created = await makePrivateFolders(this.directory);
      if (created !== undefined && this.#isDefault) {
        await writePrivateFile(
          path.join(this.directory, '.gitignore'),
          '# plankit session store\n*\n',
        );
      }
      // Also when it exists: a folder an older version made 0755 is closed to other users.
      await makePrivateFolders(this.#sessions);
      await chmod(this.#sessions, FOLDER_MODE);
      // Lock directories a crashed process kept waiting.
      await removeLeftovers(this.#locks.home);
      // New folders are directory entries too: make them durable before the first log.
      await syncDirectory(this.#sessions);
      await syncDirectory(this.directory);
      await syncDirectory(path.dirname(this.directory));
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** Turns an unexpected file system error into an `io` result. */
  async #guard<T>(
    sessionId: string | undefined,
    action: string,
    call: () => Promise<Result<T, StoreError>>,
  ): Promise<Result<T, StoreError>> {
    try {
      return await call();
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      const what =
        sessionId === undefined ? this.directory : `session ${sessionId} in ${this.directory}`;
      return fail('io', sessionId, `FileStore could not ${action} ${what}: ${reason}`, cause);
    }
  }
}
