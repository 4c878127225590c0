import type { Result } from '@plankit/core';
import type { ControllerError } from '../../controller-error.ts';
import { fromMicros, toMicros } from '../../internal/micro-usd.ts';
import { trust } from '../../internal/trusted-snapshots.ts';
import type { AdaptationLogEntry } from '../adaptation-log-entry.ts';
import type { CapName, Caps, SoftLimits } from '../default-caps.ts';
import type { StateKind } from '../machine.ts';
import type {
  Counters,
  FrozenState,
  MachineSnapshot,
  PendingEvent,
  StallState,
} from '../machine-snapshot.ts';
import type { MachineStatus } from '../machine-status.ts';
import type { Signal } from '../signal.ts';
import type { CapHit, TraceEntry, TraceKind } from '../trace-entry.ts';
import { softCostCrossed, softTurnsCrossed } from './cap-rules.ts';
import type { CompiledMachine, CompiledState } from './compiled-machine.ts';
import { type AdaptationDraft, EMPTY, type NormalizedEvent } from './normalize-event.ts';
import { withTraceAppended } from './trace-log.ts';

// How a step ends: the counters, signals, trace entry and snapshot it writes, and a cap that
// stops it. Whether a cap stops it is decided by the rules in cap-rules.ts.

/** What a step gives: the snapshot after it, or why it was refused. */
export type StepOutcome = Result<MachineSnapshot, ControllerError>;

/** The stall counter with no repeated call. */
export const NO_STALL: StallState = Object.freeze({ tool: null, signature: null, count: 0 });

/** The status a state's kind gives. */
export function statusOf(kind: StateKind): MachineStatus {
  return kind === 'work' ? 'running' : kind === 'wait' ? 'waiting' : 'done';
}

/** The compiled state named `name`; snapshots are checked against the machine first. */
export function stateOf(machine: CompiledMachine, name: string): CompiledState {
  const state = machine.states.get(name);
  // Snapshots are checked against the machine before they get here.
  if (state === undefined) throw new Error(`unreachable: ${name} is not a state of ${machine.id}`);
  return state;
}

/** What the trace records of the input of a step. */
export interface StepRecord {
  readonly outcome: string | null;
  readonly tool: string | null;
  readonly signature: string | null;
  readonly confidence: number | null;
  readonly costMicros: number;
  readonly tokens: number;
  readonly violations: readonly string[];
  readonly adaptations: readonly AdaptationDraft[];
  readonly reason: string | null;
}

/**
 * One step in progress: the snapshot before it and everything accounted so far, as plain
 * numbers, so the counters object is built once, for the state the step ends in.
 */
export interface Step {
  readonly machine: CompiledMachine;
  readonly kind: TraceKind;
  readonly prev: MachineSnapshot;
  readonly state: CompiledState;
  readonly caps: Caps;
  readonly soft: SoftLimits;
  readonly now: number;
  readonly run: number;
  readonly turns: number;
  readonly retries: Readonly<Partial<Record<string, number>>>;
  readonly elapsedMs: number;
  readonly costMicros: number;
  readonly tokens: number;
  readonly stall: StallState;
  readonly record: StepRecord;
  /** What guards see: the snapshot and the event being routed. */
  readonly guardSnapshot: MachineSnapshot;
  readonly guardEvent: PendingEvent | NormalizedEvent | null;
  /** The event a freeze would hold (made on demand for outcome steps). */
  pending: PendingEvent | null | undefined;
  signals: Signal[] | null;
}

/** Adds a signal to the step. */
export function raise(step: Step, signal: Signal): void {
  if (step.signals === null) step.signals = [signal];
  else step.signals.push(signal);
}

function pendingOf(step: Step): PendingEvent | null {
  if (step.pending === undefined) {
    const { outcome, confidence, violations, reason } = step.record;
    step.pending =
      outcome === null ? null : Object.freeze({ outcome, confidence, violations, reason });
  }
  return step.pending;
}

/** The counters a step ends with, or the previous ones when nothing changed. */
export function countersOf(
  step: Step,
  turns: number,
  retries: Readonly<Partial<Record<string, number>>>,
): Counters {
  const prev = step.prev.counters;
  const totalTurns = prev.totalTurns + (turns - step.turns);
  const costUsd =
    step.costMicros === toMicros(prev.costUsd) ? prev.costUsd : fromMicros(step.costMicros);
  if (
    step.run === prev.run &&
    turns === prev.turns &&
    retries === prev.retries &&
    step.elapsedMs === prev.elapsedMs &&
    costUsd === prev.costUsd &&
    step.tokens === prev.tokens
  ) {
    return prev;
  }
  return Object.freeze({
    run: step.run,
    turns,
    retries,
    elapsedMs: step.elapsedMs,
    totalTurns,
    costUsd,
    tokens: step.tokens,
  });
}

/** A frozen record of a cap that decided a step. */
export function capHit(
  name: CapName,
  action: CapHit['action'],
  limit: number | null,
  value: number | null,
  message: string,
): CapHit {
  return Object.freeze({ name, action, limit, value, message });
}

function addWrapUps(step: Step, counters: Counters): void {
  const { prev, soft } = step;
  const before = prev.counters.run === counters.run ? prev.counters.turns : 0;
  if (softTurnsCrossed(soft, before, counters.turns)) {
    raise(
      step,
      Object.freeze({
        type: 'wrap_up',
        limit: 'turns',
        value: counters.turns,
        threshold: soft.turns as number,
      }),
    );
  }
  if (softCostCrossed(soft, toMicros(prev.counters.costUsd), step.costMicros)) {
    raise(
      step,
      Object.freeze({
        type: 'wrap_up',
        limit: 'costUsd',
        value: counters.costUsd,
        threshold: soft.costUsd as number,
      }),
    );
  }
}

/** The snapshot a step ends in, with its trace entry and the wrap-up signals it crossed. */
export function finishStep(
  step: Step,
  state: string,
  status: MachineStatus,
  counters: Counters,
  stall: StallState,
  frozen: FrozenState | null,
  cap: CapHit | null,
): MachineSnapshot {
  const { prev, record, now, soft } = step;
  addWrapUps(step, counters);
  const signals: readonly Signal[] = step.signals === null ? EMPTY : Object.freeze(step.signals);
  const adaptations: readonly AdaptationLogEntry[] =
    record.adaptations.length === 0
      ? EMPTY
      : Object.freeze(
          record.adaptations.map((item) => Object.freeze({ at: now, stage: prev.state, ...item })),
        );
  const entry: TraceEntry = Object.freeze({
    kind: step.kind,
    at: now,
    run: counters.run,
    stage: prev.state,
    outcome: record.outcome,
    from: prev.state,
    to: state,
    status,
    tool: record.tool,
    tool_signature: record.signature,
    duration_ms: now - prev.updatedAt,
    confidence: record.confidence,
    cost_delta: record.costMicros === 0 ? 0 : fromMicros(record.costMicros),
    tokens: record.tokens,
    violations: record.violations,
    adaptations,
    reason: record.reason,
    cap,
    caps: step.kind === 'resume' ? step.caps : null,
    soft: step.kind === 'resume' ? soft : null,
    signals,
  });
  const fields: Omit<MachineSnapshot, 'trace'> = {
    format: 'plankit.machine-snapshot',
    version: 1,
    machine: prev.machine,
    state,
    status,
    caps: step.caps,
    soft,
    counters,
    stall,
    frozen,
    startedAt: prev.startedAt,
    updatedAt: now,
    signals,
  };
  return Object.freeze(trust(withTraceAppended(fields, prev, entry)));
}

/** A cap fired: go to its target or freeze, by the machine's policy. Counts no turn. */
export function stopAtCap(
  step: Step,
  name: CapName,
  limit: number | null,
  value: number | null,
  message: string,
  stall: StallState,
): MachineSnapshot {
  const policy = step.machine.policies.get(name);
  if (policy === undefined) throw new Error(`unreachable: cap ${name} has no policy`);
  const counters = countersOf(step, step.turns, step.retries);
  if (policy.action === 'goto') {
    const target = stateOf(step.machine, policy.target);
    raise(
      step,
      Object.freeze({ type: 'cap_reached', cap: name, action: 'goto', target: target.name }),
    );
    const hit = capHit(name, 'goto', limit, value, message);
    return finishStep(step, target.name, statusOf(target.kind), counters, stall, null, hit);
  }
  raise(step, Object.freeze({ type: 'cap_reached', cap: name, action: 'freeze', target: null }));
  const frozen: FrozenState = Object.freeze({
    cap: name,
    message,
    at: step.now,
    pending: pendingOf(step),
  });
  const hit = capHit(name, 'freeze', limit, value, message);
  return finishStep(step, step.prev.state, 'frozen', counters, stall, frozen, hit);
}

/**
 * `retries` with `to` set to `count`, frozen. A copy loop: V8 runs it in about two thirds of the
 * time of a spread with a computed key.
 */
export function withRetries(
  retries: Readonly<Partial<Record<string, number>>>,
  to: string,
  count: number,
): Readonly<Partial<Record<string, number>>> {
  const out: Record<string, number> = {};
  for (const key in retries) out[key] = retries[key] as number;
  out[to] = count;
  return Object.freeze(out);
}
