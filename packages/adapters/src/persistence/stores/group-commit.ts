import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { checkOptionKeys, invalidArgument, isRecord } from '@plankit/core/internal-unstable';

/** What a group needs of a written log: the file handle's sync, stat and truncate. */
export type SyncTarget = Pick<FileHandle, 'datasync' | 'stat' | 'truncate'>;

interface Member {
  readonly file: SyncTarget;
  readonly cleanEnd: number;
  readonly resolve: (stats: BigIntStats) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Makes a written append durable alone: `fdatasync`, with a `stat` of the file after the
 * write beside it. On failure the write is cut off again (so a later read cannot take it for
 * an acknowledged append) and the error is thrown.
 */
export async function syncAppend(file: SyncTarget, cleanEnd: number): Promise<BigIntStats> {
  try {
    const [, stats] = await Promise.all([file.datasync(), file.stat({ bigint: true })]);
    return stats;
  } catch (error) {
    await undoAppend(file, cleanEnd);
    throw error;
  }
}

/** Cuts a log back to where the failed append began; best effort, the append fails anyway. */
async function undoAppend(file: SyncTarget, cleanEnd: number): Promise<void> {
  try {
    await file.truncate(cleanEnd);
    await file.datasync();
  } catch {
    // The file system refuses even this: the bytes stay, unacknowledged, as after a crash.
  }
}

/**
 * Group commit for logs kept one file per session. Appends that have written their bytes
 * join the open group; the group's syncs are issued together and every append in it is
 * acknowledged only when all of them have returned. Files differ, so nothing can make one
 * `fdatasync` cover another file's data: what a group shares is the moment its syncs are
 * issued, and with it the file system's journal commit and the drive's cache flush, which
 * ext4 and XFS batch across concurrent syncs. While one group syncs, the next collects.
 *
 * A group fails as a whole: when any of its syncs fails, every file in it is cut back to
 * where its append began and every append in it is rejected.
 */
export class GroupCommit {
  readonly #maxDelayMs: number;
  #open: Member[] = [];
  #scheduled = false;
  #flushing = false;

  /**
   * @param maxDelayMs - how long a group waits for more appends after its first; with 0 it
   *   takes what arrived in the same turn of the event loop, or while the previous group synced
   */
  constructor(maxDelayMs: number) {
    this.#maxDelayMs = maxDelayMs;
  }

  /**
   * Resolves with the file's stats once the group holding this append is durable; rejects
   * (after cutting the append off) when any sync of the group failed.
   */
  sync(file: SyncTarget, cleanEnd: number): Promise<BigIntStats> {
    return new Promise<BigIntStats>((resolve, reject) => {
      this.#open.push({ file, cleanEnd, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    // A flush in progress schedules the next group when it ends.
    if (this.#scheduled || this.#flushing) return;
    this.#scheduled = true;
    const start = (): void => {
      this.#scheduled = false;
      this.#flushing = true;
      void this.#flush().finally(() => {
        this.#flushing = false;
        if (this.#open.length > 0) this.#schedule();
      });
    };
    if (this.#maxDelayMs === 0) setImmediate(start);
    else setTimeout(start, this.#maxDelayMs);
  }

  async #flush(): Promise<void> {
    const members = this.#open;
    this.#open = [];
    const results = await Promise.allSettled(
      members.map(({ file }) => Promise.all([file.datasync(), file.stat({ bigint: true })])),
    );
    const failure = results.find((result) => result.status === 'rejected');
    if (failure === undefined) {
      members.forEach((member, i) => {
        const result = results[i] as PromiseFulfilledResult<[unknown, BigIntStats]>;
        member.resolve(result.value[1]);
      });
      return;
    }
    await Promise.all(members.map((member) => undoAppend(member.file, member.cleanEnd)));
    const reason =
      failure.reason instanceof Error ? failure.reason.message : String(failure.reason);
    results.forEach((result, i) => {
      const member = members[i] as Member;
      member.reject(
        result.status === 'rejected'
          ? result.reason
          : new Error(
              `a sync in its commit group failed (${reason}); no append of the group was kept`,
              { cause: failure.reason },
            ),
      );
    });
  }
}

const GROUP_COMMIT_KEYS: ReadonlySet<string> = new Set(['maxDelayMs']);
const MAX_GROUP_DELAY_MS = 1_000;

/** The group committer `FileStore`'s `groupCommit` option asks for, if any. */
export function groupCommitOf(
  option: boolean | { readonly maxDelayMs?: number | undefined } | undefined,
): GroupCommit | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return new GroupCommit(0);
  if (!isRecord(option)) {
    throw invalidArgument('new FileStore', 'groupCommit', 'must be a boolean or { maxDelayMs }');
  }
  checkOptionKeys('new FileStore', option, GROUP_COMMIT_KEYS, 'groupCommit.');
  const { maxDelayMs = 0 } = option;
  if (
    typeof maxDelayMs !== 'number' ||
    !Number.isFinite(maxDelayMs) ||
    maxDelayMs < 0 ||
    maxDelayMs > MAX_GROUP_DELAY_MS
  ) {
    throw invalidArgument(
      'new FileStore',
      'groupCommit.maxDelayMs',
      `must be a number from 0 to ${MAX_GROUP_DELAY_MS}`,
    );
  }
  return new GroupCommit(maxDelayMs);
}
