import type { CapName, Caps, SoftLimits } from './default-caps.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';

/**
 * `work`: the agent works in it. `wait`: the machine waits for a person or another system
 * (time there is not charged, and leaving it starts a new run). `final`: an exit.
 *
 * @public
 */
export type StateKind = 'work' | 'wait' | 'final';

/** What a guard sees: the snapshot before the step and the event's routing data. @public */
export interface GuardInput<S extends string = string, O extends string = string> {
  /** The snapshot before the step. */
  readonly snapshot: MachineSnapshot<S, O>;
  /** The outcome being routed. */
  readonly outcome: O;
  /** The time of the step. */
  readonly now: number;
  /** The event's confidence, or null. */
  readonly confidence: number | null;
  /** The event's violations. */
  readonly violations: readonly string[];
  /** The event's reason, or null. */
  readonly reason: string | null;
}

/** Which state each cap sends the machine to; `default` for caps not named. @public */
export type CapTargets<S extends string = string> = {
  readonly [K in CapName | 'default']?: S | undefined;
};

/** A candidate as a {@link Machine} exposes it: guards are kept inside the engine. @public */
export interface MachineCandidate<S extends string = string> {
  /** The state to enter. */
  readonly target: S;
  /** The guard function's name (`guard` when it has none), or null when unguarded. */
  readonly guard: string | null;
}

/** One state of a {@link Machine}, normalised. @public */
export interface MachineState<S extends string = string, O extends string = string> {
  /** The state's kind. */
  readonly kind: StateKind;
  /** The outcomes it accepts, in definition order. */
  readonly outcomes: readonly O[];
  /** Each outcome's candidates, in order. */
  readonly on: Readonly<Partial<Record<O, readonly MachineCandidate<S>[]>>>;
  /** The state's own retry limit; absent when the snapshot's `caps.retries` applies. */
  readonly retries?: number | null;
  /** The description, or null. */
  readonly description: string | null;
}

/**
 * A checked, frozen machine definition: pass it to {@link initialSnapshot},
 * {@link transition} and the other engine functions.
 *
 * @typeParam S - the state names
 * @typeParam O - the outcomes
 * @public
 */
export interface Machine<S extends string = string, O extends string = string> {
  /** The machine's id. */
  readonly id: string;
  /** The initial state. */
  readonly initial: S;
  /** Every state name, in definition order. */
  readonly stateNames: readonly S[];
  /** Every outcome some state accepts, in first-seen order. */
  readonly outcomes: readonly O[];
  /** The states, normalised. */
  readonly states: Readonly<Record<S, MachineState<S, O>>>;
  /** Default hard limits of new snapshots. */
  readonly caps: Caps;
  /** Default soft limits of new snapshots. */
  readonly soft: SoftLimits;
  /** Cap targets as defined. */
  readonly onCap: CapTargets<S>;
  /** Caps that freeze. */
  readonly freezeOn: readonly CapName[];
  /** The description, or null. */
  readonly description: string | null;
}
