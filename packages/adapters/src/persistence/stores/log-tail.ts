import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { completeTail, type LogScan, scanLog } from './event-log.ts';
import { readRange } from './file-io.ts';

const TAIL_WINDOW = 4 * 1024;
// Logs kept open for the known-tail check; the least recently appended are closed past this.
const OPEN_LOGS = 256;

/**
 * What this store last wrote to a session's log: the open file, the version, and what `stat`
 * said right after the write. While the log's path still stats the same, nobody else has
 * written to it and the tail need not be read.
 */
export interface KnownTail {
  readonly handle: FileHandle;
  readonly version: number;
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

export const sameFile = (known: KnownTail, now: BigIntStats): boolean =>
  now.dev === known.dev &&
  now.ino === known.ino &&
  now.size === known.size &&
  now.mtimeNs === known.mtimeNs &&
  now.ctimeNs === known.ctimeNs;

/** What `stats` (taken right after a write) says of the log `handle` at `version`. */
export function knownTail(handle: FileHandle, version: number, stats: BigIntStats): KnownTail {
  const { dev, ino, size, mtimeNs, ctimeNs } = stats;
  return { handle, version, dev, ino, size, mtimeNs, ctimeNs };
}

/**
 * The end of a log: its version and where the last complete append ends. Reads backwards
 * from the end in growing windows until one holds a complete append.
 */
export async function readTail(handle: FileHandle, size: number): Promise<LogScan> {
  for (let window = TAIL_WINDOW; ; window *= 4) {
    const start = Math.max(0, size - window);
    const bytes = await readRange(handle, start, size);
    const complete = completeTail(bytes, start === 0);
    if (typeof complete === 'number') {
      return { lines: [], version: complete, cleanEnd: size, tornBytes: 0, corrupt: undefined };
    }
    if (complete === 'more') continue;
    // Start at a line boundary: the first bytes of a window may be the end of a longer line.
    const skip = start === 0 ? 0 : bytes.indexOf(0x0a) + 1;
    if (start > 0 && skip === 0) continue;
    const scan = scanLog(bytes.subarray(skip), start === 0 ? 1 : undefined, false);
    if (scan.version !== undefined || start === 0) {
      return { ...scan, cleanEnd: start + skip + scan.cleanEnd };
    }
  }
}

/**
 * The known tails of the logs this store wrote, least recently used first, each holding its
 * log open; past {@link OPEN_LOGS} the least recently appended is closed.
 */
export class KnownTails {
  // An append takes its entry out while it runs.
  readonly #tails = new Map<string, KnownTail>();

  /** Takes the known tail of a session's log out, for an append to use or drop. */
  take(sessionId: string): KnownTail | undefined {
    const known = this.#tails.get(sessionId);
    this.#tails.delete(sessionId);
    return known;
  }

  /** Keeps a session's known tail, closing the least recently used log past the limit. */
  remember(sessionId: string, known: KnownTail): void {
    this.#tails.set(sessionId, known);
    for (const [id, old] of this.#tails) {
      if (this.#tails.size <= OPEN_LOGS) break;
      this.#tails.delete(id);
      old.handle.close().catch(() => {});
    }
  }

  /** Forgets a session's known tail and closes its log. */
  async forget(sessionId: string): Promise<void> {
    const known = this.#tails.get(sessionId);
    this.#tails.delete(sessionId);
    await known?.handle.close().catch(() => {});
  }

  /** Forgets every known tail, closing their logs. */
  async forgetAll(): Promise<void> {
    const open = [...this.#tails.keys()];
    await Promise.all(open.map((id) => this.forget(id)));
  }
}
