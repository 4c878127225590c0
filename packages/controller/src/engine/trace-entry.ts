import type { AdaptationLogEntry } from './adaptation-log-entry.ts';
import type { CapName, Caps, SoftLimits } from './default-caps.ts';
import type { MachineStatus } from './machine-status.ts';
import type { Signal } from './signal.ts';

/**
 * What made a step: `outcome` a {@link transition}, `cap` a {@link reportCap}, `resume` a
 * {@link resume}.
 *
 * @public
 */
export type TraceKind = 'outcome' | 'cap' | 'resume';

/**
 * How a cap acted: `route` (a stall the state routes with its `stalled` outcome), `goto` (to
 * the cap's target) or `freeze`.
 *
 * @public
 */
export type CapAction = 'route' | 'goto' | 'freeze';

/** The cap that decided a step. @public */
export interface CapHit {
  /** Which cap. */
  readonly name: CapName;
  /** What it did. */
  readonly action: CapAction;
  /** The limit in force, or null when the host reported the cap. */
  readonly limit: number | null;
  /** The value that broke it, or null when the host reported the cap. */
  readonly value: number | null;
  /** Why, in one sentence. */
  readonly message: string;
}

/**
 * One step of a machine: what happened, plus what replaying it needs.
 *
 * @public
 */
export interface TraceEntry<S extends string = string, O extends string = string> {
  /** What made the step. */
  readonly kind: TraceKind;
  /** When, in epoch milliseconds. */
  readonly at: number;
  /** The run the step belongs to. */
  readonly run: number;
  /** The stage that reported (the same as `from`). */
  readonly stage: S;
  /** The outcome reported (for a resume, the pending one routed), or null. */
  readonly outcome: O | null;
  /** The state before the step. */
  readonly from: S;
  /** The state after the step. */
  readonly to: S;
  /** The machine's status after the step. */
  readonly status: MachineStatus;
  /** The tool the event named, or null. */
  readonly tool: string | null;
  /** The hash of the tool's name, arguments and result, or null. */
  readonly tool_signature: string | null;
  /** Milliseconds since the previous step. */
  readonly duration_ms: number;
  /** The confidence the event reported, or null. */
  readonly confidence: number | null;
  /** USD the event reported. */
  readonly cost_delta: number;
  /** Tokens the event reported. */
  readonly tokens: number;
  /** Rule violations the event reported. */
  readonly violations: readonly string[];
  /** Structural changes the event reported. */
  readonly adaptations: readonly AdaptationLogEntry[];
  /** The event's (or host's) own explanation, or null. */
  readonly reason: string | null;
  /** The cap that decided the step, or null. */
  readonly cap: CapHit | null;
  /** The caps after a resume; null for other kinds. */
  readonly caps: Caps | null;
  /** The soft limits after a resume; null for other kinds. */
  readonly soft: SoftLimits | null;
  /** What the step raised. */
  readonly signals: readonly Signal[];
}
