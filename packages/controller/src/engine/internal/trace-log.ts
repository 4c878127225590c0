import { Identity } from '@plankit/core/internal-unstable';
import type { MachineSnapshot } from '../machine-snapshot.ts';
import type { TraceEntry } from '../trace-entry.ts';

/** Counts the entries copied into the frozen arrays readers see, for the tests. */
export const traceCopies = { entries: 0 };

/**
 * A snapshot's trace as a persistent, append-only list: each version is one immutable cell
 * holding its newest entry and the version before it, so a step appends in O(1) whatever the
 * history, never touches an older version, and two steps from one snapshot (a branch) share
 * everything before them without a copy. `toArray` builds the frozen array readers see once
 * per version, on first read.
 */
export class TraceLog {
  static readonly EMPTY: TraceLog = new TraceLog(undefined, undefined, 0);

  /** The newest entry, or undefined when the trace is empty. */
  readonly entry: TraceEntry | undefined;
  readonly previous: TraceLog | undefined;
  readonly length: number;
  #array: readonly TraceEntry[] | undefined;

  private constructor(
    entry: TraceEntry | undefined,
    previous: TraceLog | undefined,
    length: number,
  ) {
    this.entry = entry;
    this.previous = previous;
    this.length = length;
  }

  /** A trace holding `entries` (already frozen), oldest first. */
  static from(entries: readonly TraceEntry[]): TraceLog {
    let log = TraceLog.EMPTY;
    for (const entry of entries) log = log.append(entry);
    if (Object.isFrozen(entries)) log.#array = entries;
    return log;
  }

  /** This trace with `entry` appended. */
  append(entry: TraceEntry): TraceLog {
    return new TraceLog(entry, this, this.length + 1);
  }

  /** The entries, oldest first, as a frozen array (built once per version). */
  toArray(): readonly TraceEntry[] {
    if (this.#array !== undefined) return this.#array;
    const out = new Array<TraceEntry>(this.length);
    let log: TraceLog = this;
    for (let i = this.length - 1; i >= 0; i--) {
      out[i] = log.entry as TraceEntry;
      log = log.previous as TraceLog;
    }
    traceCopies.entries += out.length;
    this.#array = Object.freeze(out);
    return this.#array;
  }
}

/** Keeps a snapshot's trace log in a private field of the snapshot: invisible and unforgeable. */
class Logged extends Identity {
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
function withTrace(fields: Omit<MachineSnapshot, 'trace'>, log: TraceLog): MachineSnapshot {
  Object.defineProperty(fields, 'trace', TRACE);
  return new Logged(fields, log) as unknown as MachineSnapshot;
}

/**
 * Traces shorter than this stay plain frozen arrays, copied on each step: for a few dozen
 * entries the copy costs less than defining the getter, and it is bounded, so no step's cost
 * grows with history either way. From this length on a snapshot's trace lives in a log.
 */
export const SHORT_TRACE = 32;

/** `fields` with `trace` set to the frozen array `trace` (a data property, last). */
function withArray(fields: Omit<MachineSnapshot, 'trace'>, trace: readonly TraceEntry[]) {
  (fields as { trace?: readonly TraceEntry[] }).trace = trace;
  return fields as MachineSnapshot;
}

/** `fields` completed with `trace` (frozen entries): a frozen array while short, else a log. */
export function withTraceOf(
  fields: Omit<MachineSnapshot, 'trace'>,
  trace: readonly TraceEntry[],
): MachineSnapshot {
  return trace.length < SHORT_TRACE
    ? withArray(fields, Object.isFrozen(trace) ? trace : Object.freeze([...trace]))
    : withTrace(fields, TraceLog.from(trace));
}

/** `fields` completed with the trace `snapshot` has, shared, not copied. */
export function withTraceOfSnapshot(
  fields: Omit<MachineSnapshot, 'trace'>,
  snapshot: MachineSnapshot,
): MachineSnapshot {
  const log = Logged.of(snapshot);
  return log === undefined ? withTraceOf(fields, snapshot.trace) : withTrace(fields, log);
}

/** `fields` completed with the trace of `prev` plus `entry`. O(1) amortised, whatever the history. */
export function withTraceAppended(
  fields: Omit<MachineSnapshot, 'trace'>,
  prev: MachineSnapshot,
  entry: TraceEntry,
): MachineSnapshot {
  const log = Logged.of(prev);
  if (log !== undefined) return withTrace(fields, log.append(entry));
  const trace = prev.trace;
  if (trace.length + 1 < SHORT_TRACE) {
    traceCopies.entries += trace.length;
    return withArray(fields, Object.freeze([...trace, entry]));
  }
  return withTrace(fields, TraceLog.from(trace).append(entry));
}

/** The newest entry of a snapshot's trace, without building the whole array. */
export function latestEntry(snapshot: MachineSnapshot): TraceEntry | undefined {
  const log = Logged.of(snapshot);
  return log === undefined ? snapshot.trace[snapshot.trace.length - 1] : log.entry;
}
