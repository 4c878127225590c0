import type { MachineSnapshot } from '../machine-snapshot.ts';
import type { TraceEntry } from '../trace-entry.ts';

/** Entries per chunk: appends fill one chunk in place, then start the next. */
export const TRACE_CHUNK = 64;

/** One chunk of a trace, linked to the one before it. */
interface Chunk {
  /** Grows in place up to {@link TRACE_CHUNK}; a version reads only its own prefix of it. */
  readonly items: TraceEntry[];
  readonly previous: Chunk | undefined;
  /** The index of `items[0]` in the trace. */
  readonly first: number;
}

/** Counts the entries copied into frozen arrays and into branched chunks, for the tests. */
export const traceCopies = { entries: 0 };

/**
 * A snapshot's trace as a persistent, append-only list of chunks (the shape of @plankit/core's
 * tool-call log). A version holds entries `[0, length)` and reads only that part of its chunks,
 * so an append that fills the newest chunk in place changes nothing an older version sees; an
 * append to an older version (a branch: two transitions from one snapshot) copies that one
 * chunk. Appending costs O(1) whatever the history. `toArray` builds the frozen array readers
 * see once per version, on first read.
 */
export class TraceLog {
  static readonly EMPTY: TraceLog = new TraceLog(undefined, 0);

  readonly chunk: Chunk | undefined;
  readonly length: number;
  #array: readonly TraceEntry[] | undefined;

  private constructor(chunk: Chunk | undefined, length: number) {
    this.chunk = chunk;
    this.length = length;
  }

  /** A trace holding `entries` (already frozen), oldest first. */
  static from(entries: readonly TraceEntry[]): TraceLog {
    let chunk: Chunk | undefined;
    for (let first = 0; first < entries.length; first += TRACE_CHUNK) {
      chunk = { items: entries.slice(first, first + TRACE_CHUNK), previous: chunk, first };
    }
    const log = new TraceLog(chunk, entries.length);
    if (Object.isFrozen(entries)) log.#array = entries;
    return log;
  }

  /** The newest entry, or undefined when the trace is empty. */
  latest(): TraceEntry | undefined {
    const chunk = this.chunk;
    return chunk === undefined ? undefined : chunk.items[this.length - 1 - chunk.first];
  }

  /** This trace with `entry` appended. */
  append(entry: TraceEntry): TraceLog {
    const chunk = this.chunk;
    const used = chunk === undefined ? TRACE_CHUNK : this.length - chunk.first;
    let next: Chunk;
    if (chunk !== undefined && used < TRACE_CHUNK) {
      if (chunk.items.length === used) {
        chunk.items.push(entry);
        next = chunk;
      } else {
        // Another version already extended this chunk (two steps from one snapshot): branch.
        const items = chunk.items.slice(0, used);
        traceCopies.entries += used;
        items.push(entry);
        next = { items, previous: chunk.previous, first: chunk.first };
      }
    } else {
      next = { items: [entry], previous: chunk, first: this.length };
    }
    return new TraceLog(next, this.length + 1);
  }

  /** The entries, oldest first, as a frozen array (built once per version). */
  toArray(): readonly TraceEntry[] {
    if (this.#array !== undefined) return this.#array;
    const out = new Array<TraceEntry>(this.length);
    for (let chunk = this.chunk; chunk !== undefined; chunk = chunk.previous) {
      const to = Math.min(chunk.first + chunk.items.length, this.length);
      for (let i = chunk.first; i < to; i++) out[i] = chunk.items[i - chunk.first] as TraceEntry;
    }
    traceCopies.entries += out.length;
    this.#array = Object.freeze(out);
    return this.#array;
  }
}

// Hands back the object it is given, so a subclass's private field lands on that object.
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the return override is the point
    return target;
  }
}

/** Keeps a snapshot's trace log in a private field of the snapshot: invisible and unforgeable. */
class Logged extends Stamp {
  readonly #log: TraceLog;

  constructor(target: object, log: TraceLog) {
    super(target);
    this.#log = log;
  }

  static of(value: object): TraceLog | undefined {
    return #log in value ? (value as Logged).#log : undefined;
  }
}

/** The log behind `object`'s `trace`, looked up the prototype chain (a getter's receiver may inherit). */
function ownerLog(object: object): TraceLog {
  for (let at: object | null = object; at !== null; at = Object.getPrototypeOf(at)) {
    const log = Logged.of(at);
    if (log !== undefined) return log;
  }
  throw new TypeError('trace: not read from a machine snapshot');
}

// One getter for every snapshot (no closure per step), so snapshots share their hidden class.
const TRACE: PropertyDescriptor = {
  get(this: object): readonly TraceEntry[] {
    return ownerLog(this).toArray();
  },
  enumerable: true,
};

/**
 * Gives `fields` (every snapshot field but `trace`, in snapshot order) an enumerable `trace`
 * getter that reads `log`, last, so JSON, spread, `Object.keys` and equality see a plain frozen
 * array in the usual place. Call it before trusting and freezing the snapshot.
 */
export function withTrace(fields: Omit<MachineSnapshot, 'trace'>, log: TraceLog): MachineSnapshot {
  Object.defineProperty(fields, 'trace', TRACE);
  return new Logged(fields, log) as unknown as MachineSnapshot;
}

/**
 * The log behind a snapshot's trace: its own when the engine built it, else (a snapshot made
 * elsewhere, such as a guard's view) one read from its trace.
 */
export function traceLogOf(snapshot: MachineSnapshot): TraceLog {
  return Logged.of(snapshot) ?? TraceLog.from(snapshot.trace);
}
