import { type Brand, brand } from './brand.ts';

/** Entries per chunk: appends fill one chunk in place, then start the next. */
export const CHUNK_SIZE = 64;

/** One chunk of the log, linked to the one before it. Internal: readers see frozen arrays. */
export interface LogChunk {
  /** Grows in place up to {@link CHUNK_SIZE}; a version reads only its own prefix of it. */
  readonly items: unknown[];
  readonly previous: LogChunk | undefined;
  /** The absolute index of `items[0]`. */
  readonly first: number;
}

/** Counts the entries copied by branching appends and cap compactions, for the tests. */
export const logCopies = { entries: 0, chunks: 0 };

/** Counts the entries read out of chunks (`toArray`, {@link appendedSince}), for the tests. */
export const logReads = { entries: 0 };

/**
 * The tool-call log as a persistent, append-only list of chunks. Every version is immutable to
 * its readers: a version holds entries `[start, end)` and reads only that part of its chunks,
 * so an append that fills the newest chunk in place changes nothing an older version sees.
 * An append after a rollback (the chunk was already extended past this version) copies that
 * one chunk. So appending costs O(1) amortised, whatever the history, and old chunks are
 * never touched. `toArray` builds the frozen array readers get, once per version, on demand.
 */
export class CallLog {
  static readonly EMPTY: CallLog = new CallLog(undefined, 0, 0, 0, {});

  /** The newest chunk, or undefined when nothing was ever appended. */
  readonly chunk: LogChunk | undefined;
  /** The absolute index of the oldest entry kept. */
  readonly start: number;
  /** The absolute index after the newest entry. */
  readonly end: number;
  /** The absolute index of the oldest chunk still linked. */
  readonly base: number;
  /** Shared by every version appends made from one log (`from` and `EMPTY` start one). */
  readonly lineage: object;
  #array: readonly unknown[] | undefined;

  private constructor(
    chunk: LogChunk | undefined,
    start: number,
    end: number,
    base: number,
    lineage: object,
  ) {
    this.chunk = chunk;
    this.start = start;
    this.end = end;
    this.base = base;
    this.lineage = lineage;
  }

  /** A log holding `values` (already checked and frozen), oldest first. */
  static from(values: readonly unknown[]): CallLog {
    let chunk: LogChunk | undefined;
    for (let first = 0; first < values.length; first += CHUNK_SIZE) {
      chunk = { items: values.slice(first, first + CHUNK_SIZE), previous: chunk, first };
    }
    return new CallLog(chunk, 0, values.length, 0, {});
  }

  /** How many entries this version holds. */
  get length(): number {
    return this.end - this.start;
  }

  /** The newest entry, or undefined. */
  latest(): unknown {
    if (this.chunk === undefined || this.end === this.start) return undefined;
    return this.chunk.items[this.end - 1 - this.chunk.first];
  }

  /**
   * This log with `value` appended; with `cap`, only the newest `cap` entries are kept (the
   * chunks holding only older ones are unlinked every `cap` appends or so, so memory is freed
   * without an O(cap) cost per append).
   */
  append(value: unknown, cap?: number): CallLog {
    const chunk = this.chunk;
    let next: LogChunk;
    const used = chunk === undefined ? CHUNK_SIZE : this.end - chunk.first;
    if (chunk !== undefined && used < CHUNK_SIZE) {
      if (chunk.items.length === used) {
        chunk.items.push(value);
        next = chunk;
      } else {
        // Another version extended this chunk already (this one was rolled back to): branch.
        const items = chunk.items.slice(0, used);
        logCopies.entries += used;
        items.push(value);
        next = { items, previous: chunk.previous, first: chunk.first };
      }
    } else {
      next = { items: [value], previous: chunk, first: this.end };
    }
    const end = this.end + 1;
    if (cap === undefined || end - this.start <= cap)
      return new CallLog(next, this.start, end, this.base, this.lineage);
    const start = end - cap;
    if (start - this.base < cap + CHUNK_SIZE)
      return new CallLog(next, start, end, this.base, this.lineage);
    const kept = compact(next, start);
    return new CallLog(kept.newest, start, end, kept.base, this.lineage);
  }

  /** The entries, oldest first, as a frozen array (built once per version). */
  toArray(): readonly unknown[] {
    if (this.#array === undefined) this.#array = Object.freeze(entriesFrom(this, this.start));
    return this.#array;
  }
}

/** The entries `log` holds from absolute index `from` (at least its start) on, oldest first. */
function entriesFrom(log: CallLog, from: number): unknown[] {
  const out = new Array<unknown>(log.end - from);
  for (let chunk = log.chunk; chunk !== undefined; chunk = chunk.previous) {
    const to = Math.min(chunk.first + chunk.items.length, log.end);
    for (let i = Math.max(chunk.first, from); i < to; i++)
      out[i - from] = chunk.items[i - chunk.first];
    if (chunk.first <= from) break;
  }
  logReads.entries += out.length;
  return out;
}

// The readers below are functions, not methods, so a bundle that only appends (a session)
// leaves them out: the stores use appendedSince, the tests logChunks.

/**
 * The entries `newer` holds that `older` does not, oldest first, when `newer` was made from
 * `older` by appends (a commit after it); undefined when that cannot be told (another
 * lineage: a reducer rewrote the log, or a rollback restored one read from JSON; or the entry
 * `older` ends with is not where `newer` has it). Costs O(entries returned + chunks walked
 * back to `older`'s end), never O(log length).
 */
export function appendedSince(newer: CallLog, older: CallLog): readonly unknown[] | undefined {
  if (older.lineage !== newer.lineage || older.end > newer.end) return undefined;
  // Where `newer` still holds older's newest entry, it must be that very entry.
  if (older.end > older.start && older.end - 1 >= newer.start) {
    if (entryAt(newer, older.end - 1) !== older.latest()) return undefined;
  }
  return entriesFrom(newer, Math.max(older.end, newer.start));
}

/** The entry of `log` at absolute index `index` (within `[start, end)`). */
function entryAt(log: CallLog, index: number): unknown {
  let chunk = log.chunk;
  while (chunk !== undefined && chunk.first > index) chunk = chunk.previous;
  return chunk?.items[index - chunk.first];
}

/** The chunks `log` reads, oldest first (for the tests). */
export function logChunks(log: CallLog): readonly LogChunk[] {
  const out: LogChunk[] = [];
  for (let chunk = log.chunk; chunk !== undefined; chunk = chunk.previous) {
    out.push(chunk);
    if (chunk.first <= log.start) break;
  }
  return out.reverse();
}

/**
 * Relinks the chunks that hold entries from `start` on, so the older ones can be collected.
 * Their entry arrays are shared, not copied: O(cap / CHUNK_SIZE), run once every `cap` appends
 * or so (when the unlinked part would hold about `cap` entries).
 */
function compact(newest: LogChunk, start: number): { newest: LogChunk; base: number } {
  const kept: LogChunk[] = [];
  for (let chunk: LogChunk | undefined = newest; chunk !== undefined; chunk = chunk.previous) {
    kept.push(chunk);
    if (chunk.first <= start) break;
  }
  let previous: LogChunk | undefined;
  for (let i = kept.length - 1; i >= 0; i--) {
    const chunk = kept[i] as LogChunk;
    previous = { items: chunk.items, previous, first: chunk.first };
  }
  logCopies.chunks += kept.length;
  return { newest: previous as LogChunk, base: (kept[kept.length - 1] as LogChunk).first };
}

/** The log behind a snapshot's slices object, when a session made it. */
export const logsOfSlices: Brand<CallLog> = brand();

/**
 * The tool-call log entries the slices `after` hold that `before` did not, when `after` is a
 * commit's result on top of `before` (both a session's snapshots' slices); undefined when
 * that cannot be told, and the caller must compare the slices in full. O(change).
 */
export function appendedLogEntries(before: object, after: object): readonly unknown[] | undefined {
  const older = logsOfSlices.get(before);
  const newer = logsOfSlices.get(after);
  return older === undefined || newer === undefined ? undefined : appendedSince(newer, older);
}
