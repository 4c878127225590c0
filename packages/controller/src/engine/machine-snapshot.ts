import type { Caps, SoftLimits } from './default-caps.ts';
import type { MachineStatus } from './machine-status.ts';
import type { Signal } from './signal.ts';
import type { TraceEntry } from './trace-entry.ts';

/** The format version of {@link MachineSnapshot}. @public */
export const MACHINE_SNAPSHOT_VERSION = 1;

/** The machine's counters. @public */
export interface Counters<S extends string = string> {
  /** The current run, from 1; leaving a wait state starts the next. */
  readonly run: number;
  /** Transitions in this run. */
  readonly turns: number;
  /** Per stage entered in this run: how many times it was entered again. */
  readonly retries: Readonly<Partial<Record<S, number>>>;
  /** Active milliseconds in this run. */
  readonly elapsedMs: number;
  /** Transitions in the whole session. */
  readonly totalTurns: number;
  /** USD reported by events in the whole session. */
  readonly costUsd: number;
  /** Tokens reported by events in the whole session. */
  readonly tokens: number;
}

/** Stall tracking: the last tool signature and how many times in a row it came. @public */
export interface StallState {
  /** The tool of the last signature, or null. */
  readonly tool: string | null;
  /** The last signature, or null. */
  readonly signature: string | null;
  /** How many times in a row. */
  readonly count: number;
}

/** The event a freeze holds, routed again on {@link resume}. @public */
export interface PendingEvent<O extends string = string> {
  /** The outcome reported. */
  readonly outcome: O;
  /** The confidence reported, or null. */
  readonly confidence: number | null;
  /** The violations reported. */
  readonly violations: readonly string[];
  /** The event's own explanation, or null. */
  readonly reason: string | null;
}

/** Why and since when a machine is frozen. @public */
export interface FrozenState<O extends string = string> {
  /** The cap that froze it. */
  readonly cap: string;
  /** Why, in one sentence. */
  readonly message: string;
  /** Since when, in epoch milliseconds. */
  readonly at: number;
  /** The event that hit the cap, or null when the host reported the cap. */
  readonly pending: PendingEvent<O> | null;
}

/**
 * A machine's whole state: deeply frozen plain JSON, safe to `JSON.stringify` and to resume in
 * another process with {@link machineSnapshotFromJSON}.
 *
 * @typeParam S - the machine's state names
 * @typeParam O - the machine's outcomes
 * @public
 */
export interface MachineSnapshot<S extends string = string, O extends string = string> {
  /** Always `plankit.machine-snapshot`. */
  readonly format: 'plankit.machine-snapshot';
  /** The format version, 1. */
  readonly version: 1;
  /** The machine's id. */
  readonly machine: string;
  /** The current state. */
  readonly state: S;
  /** See {@link MachineStatus}. */
  readonly status: MachineStatus;
  /** The hard limits in force. */
  readonly caps: Caps;
  /** The soft limits in force. */
  readonly soft: SoftLimits;
  /** Turns, retries, time, cost and tokens. */
  readonly counters: Counters<S>;
  /** Stall tracking. */
  readonly stall: StallState;
  /** Set while frozen. */
  readonly frozen: FrozenState<O> | null;
  /** When the machine started, in epoch milliseconds. */
  readonly startedAt: number;
  /** When the last step happened, in epoch milliseconds. */
  readonly updatedAt: number;
  /** What the step that produced this snapshot raised. */
  readonly signals: readonly Signal[];
  /**
   * One entry per step, oldest first. A long trace is read through an enumerable getter that
   * builds this frozen array on first read and returns the same one afterwards, so a step never
   * copies the trace; JSON, spread and equality see a plain array.
   */
  readonly trace: readonly TraceEntry<S, O>[];
}
