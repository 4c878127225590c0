import { fromMicros, MAX_TOTAL_MICROS, toMicros } from '../../internal/micro-usd.ts';
import type { CapName, Caps, SoftLimits } from '../default-caps.ts';
import type { MachineSnapshot, PendingEvent } from '../machine-snapshot.ts';
import type { TraceKind } from '../trace-entry.ts';
import { unstorableTotal } from './cap-rules.ts';
import type { CompiledMachine } from './compiled-machine.ts';
import { invalid } from './failure.ts';
import {
  finishStep,
  NO_STALL,
  type Step,
  type StepOutcome,
  type StepRecord,
  stateOf,
  statusOf,
  stopAtCap,
} from './finish-step.ts';
import { EMPTY, type NormalizedEvent } from './normalize-event.ts';
import { acceptedTarget, routeOutcome } from './route-outcome.ts';
import { withTraceOfSnapshot } from './trace-log.ts';

// The three ways a step starts, each from a checked input (normalize-event.ts, or the
// resume and reportCap checks): an outcome, a cap the host reports, and a resume.

const NO_RETRIES: Readonly<Record<string, number>> = Object.freeze({});

/** Applies a checked outcome event to a running or waiting machine. */
export function applyOutcome(
  machine: CompiledMachine,
  prev: MachineSnapshot,
  event: NormalizedEvent,
  where: string,
): StepOutcome {
  const state = stateOf(machine, prev.state);
  const target = acceptedTarget(machine, where, state, event.outcome, prev, event.now, event);
  if (typeof target === 'object') return target;

  const fresh = prev.status === 'waiting';
  const base = prev.counters;
  const costMicros =
    event.costMicros === 0 ? toMicros(base.costUsd) : toMicros(base.costUsd) + event.costMicros;
  const tokens = base.tokens + event.tokens;
  // Totals a snapshot could not store back are refused before anything counts.
  const over = unstorableTotal(event.costMicros, costMicros, tokens);
  if (over === 'costUsd') {
    return invalid(
      where,
      'event.costUsd',
      `would take the session's cost to ${fromMicros(costMicros)} USD, over the ${fromMicros(MAX_TOTAL_MICROS)} USD a snapshot stores`,
    );
  }
  if (over === 'tokens') {
    return invalid(
      where,
      'event.tokens',
      `would take the session's tokens past ${Number.MAX_SAFE_INTEGER}, more than a snapshot stores`,
    );
  }
  let stall = NO_STALL;
  if (event.signature !== null) {
    const again = event.signature === prev.stall.signature;
    stall = Object.freeze({
      tool: event.tool,
      signature: event.signature,
      count: again ? prev.stall.count + 1 : 1,
    });
  }
  const step: Step = {
    machine,
    kind: 'outcome',
    prev,
    state,
    caps: prev.caps,
    soft: prev.soft,
    now: event.now,
    run: fresh ? base.run + 1 : base.run,
    turns: fresh ? 0 : base.turns,
    retries: fresh ? NO_RETRIES : base.retries,
    elapsedMs:
      (fresh ? 0 : base.elapsedMs) + (state.kind === 'work' ? event.now - prev.updatedAt : 0),
    costMicros,
    tokens,
    stall,
    record: event,
    guardSnapshot: prev,
    guardEvent: event,
    pending: undefined,
    signals: null,
  };
  return routeOutcome(step, event.outcome, target);
}

function quietRecord(
  outcome: string | null,
  reason: string | null,
  pending: PendingEvent | null,
): StepRecord {
  return {
    outcome,
    tool: null,
    signature: null,
    confidence: pending?.confidence ?? null,
    costMicros: 0,
    tokens: 0,
    violations: pending?.violations ?? EMPTY,
    adaptations: EMPTY,
    reason,
  };
}

function quietStep(
  machine: CompiledMachine,
  kind: TraceKind,
  prev: MachineSnapshot,
  limits: { readonly caps: Caps; readonly soft: SoftLimits },
  now: number,
  elapsedMs: number,
  record: StepRecord,
  pending: PendingEvent | null,
): Step {
  const { counters } = prev;
  return {
    machine,
    kind,
    prev,
    state: stateOf(machine, prev.state),
    caps: limits.caps,
    soft: limits.soft,
    now,
    run: counters.run,
    turns: counters.turns,
    retries: counters.retries,
    elapsedMs,
    costMicros: toMicros(counters.costUsd),
    tokens: counters.tokens,
    stall: prev.stall,
    record,
    guardSnapshot: prev,
    guardEvent: pending,
    pending,
    signals: null,
  };
}

/** Applies a cap the host reports to a running or waiting machine. */
export function applyCapReport(
  machine: CompiledMachine,
  prev: MachineSnapshot,
  cap: CapName,
  now: number,
  reason: string | null,
): MachineSnapshot {
  const work = stateOf(machine, prev.state).kind === 'work';
  const elapsedMs = prev.counters.elapsedMs + (work ? now - prev.updatedAt : 0);
  const step = quietStep(
    machine,
    'cap',
    prev,
    prev,
    now,
    elapsedMs,
    quietRecord(null, reason, null),
    null,
  );
  const message =
    reason === null ? `${cap}: reported by the host` : `${cap}: reported by the host: ${reason}`;
  return stopAtCap(step, cap, null, null, message, prev.stall);
}

/** Leaves a freeze with the given limits, routing the pending event again unless discarded. */
export function applyResume(
  machine: CompiledMachine,
  prev: MachineSnapshot,
  input: {
    readonly now: number;
    readonly caps: Caps;
    readonly soft: SoftLimits;
    readonly reason: string | null;
    readonly discardPending: boolean;
  },
  where: string,
): StepOutcome {
  const state = stateOf(machine, prev.state);
  const pending = prev.frozen?.pending ?? null;
  const routed = pending !== null && !input.discardPending ? pending : null;
  const record = quietRecord(routed?.outcome ?? null, input.reason, routed);
  const step = quietStep(
    machine,
    'resume',
    prev,
    input,
    input.now,
    prev.counters.elapsedMs,
    record,
    routed,
  );
  if (routed === null) {
    return {
      ok: true,
      value: finishStep(
        step,
        state.name,
        statusOf(state.kind),
        prev.counters,
        prev.stall,
        null,
        null,
      ),
    };
  }
  // Guards see the machine as it is after the resume: unfrozen, with the new limits.
  // Built field by field (not spread) so the view shares the trace instead of copying it.
  const view: MachineSnapshot = Object.freeze(
    withTraceOfSnapshot(
      {
        format: prev.format,
        version: prev.version,
        machine: prev.machine,
        state: prev.state,
        status: statusOf(state.kind),
        caps: input.caps,
        soft: input.soft,
        counters: prev.counters,
        stall: prev.stall,
        frozen: null,
        startedAt: prev.startedAt,
        updatedAt: prev.updatedAt,
        signals: prev.signals,
      },
      prev,
    ),
  );
  const target = acceptedTarget(machine, where, state, routed.outcome, view, input.now, routed);
  if (typeof target === 'object') return target;
  return routeOutcome({ ...step, guardSnapshot: view }, routed.outcome, target);
}
