import type { ControllerError } from '../../controller-error.ts';
import { show } from '../../internal/checks.ts';
import { fromMicros } from '../../internal/micro-usd.ts';
import type { GuardInput } from '../machine.ts';
import type { MachineSnapshot, PendingEvent } from '../machine-snapshot.ts';
import type { CapHit } from '../trace-entry.ts';
import {
  retryCapReached,
  retryCount,
  retryLimit,
  stallReached,
  type UsageCap,
  usageCapReached,
} from './cap-rules.ts';
import type { CompiledCandidate, CompiledMachine, CompiledState } from './compiled-machine.ts';
import { failure } from './failure.ts';
import {
  capHit,
  countersOf,
  finishStep,
  NO_STALL,
  raise,
  type Step,
  type StepOutcome,
  stateOf,
  statusOf,
  stopAtCap,
  withRetries,
} from './finish-step.ts';

// Where an accepted outcome goes: its guards, then the caps that may stop or reroute it.

/** What a guard threw, as text; a value with no text (a null-prototype object) is named. */
function thrownText(cause: unknown): string {
  try {
    return cause instanceof Error ? String(cause.message) : String(cause);
  } catch {
    return 'a value that cannot be shown';
  }
}

/** The first candidate whose guard passes; null when none does. The guard input is made once, on demand. */
function resolveTarget(
  machine: CompiledMachine,
  state: string,
  outcome: string,
  candidates: readonly CompiledCandidate[],
  snapshot: MachineSnapshot,
  now: number,
  event: Pick<PendingEvent, 'confidence' | 'violations' | 'reason'>,
): { readonly ok: false; readonly error: ControllerError } | string | null {
  let input: GuardInput | undefined;
  for (const { target, guard } of candidates) {
    if (guard === null) return target;
    input ??= {
      snapshot,
      outcome,
      now,
      confidence: event.confidence,
      violations: event.violations,
      reason: event.reason,
    };
    let passed: unknown;
    try {
      passed = guard(input);
    } catch (cause) {
      return failure(
        'guard_rejected',
        `${machine.id}: a guard of ${state} on ${outcome} threw: ${thrownText(cause)}`,
        'guard',
        state,
        cause,
      );
    }
    if (passed === true) return target;
  }
  return null;
}

/**
 * Routes an accepted outcome to `target`, unless a cap decides otherwise: wall time, cost,
 * tokens, turns, stall, retries, in that order (the rules of cap-rules.ts).
 */
export function routeOutcome(step: Step, outcome: string, target: string): StepOutcome {
  const { caps, machine, state } = step;
  const usage = usageCapReached(caps, step.elapsedMs, step.costMicros, step.tokens, step.turns);
  if (usage !== null) return { ok: true, value: stopAtUsageCap(step, usage) };
  let to = target;
  let hit: CapHit | null = null;
  let stall = step.stall;
  if (stallReached(caps, stall.count)) {
    const tool = stall.tool ?? 'a tool';
    const message = `stall: ${tool} was called ${stall.count} times in a row with the same arguments and result`;
    raise(step, Object.freeze({ type: 'stalled', tool, repeats: stall.count }));
    const repeats = stall.count;
    stall = NO_STALL;
    const routes = outcome === 'stalled' ? undefined : state.on.get('stalled');
    const rerouted =
      routes === undefined
        ? null
        : resolveTarget(
            machine,
            state.name,
            'stalled',
            routes,
            step.guardSnapshot,
            step.now,
            step.guardEvent ?? step.record,
          );
    if (rerouted !== null && typeof rerouted === 'object') return rerouted;
    if (rerouted === null && outcome !== 'stalled') {
      return { ok: true, value: stopAtCap(step, 'stall', caps.stall, repeats, message, stall) };
    }
    if (rerouted !== null) to = rerouted;
    hit = capHit('stall', 'route', caps.stall, repeats, message);
  }
  const next = stateOf(machine, to);
  const retries = retryCount(step.retries, to);
  const limit = retryLimit(next, caps);
  if (retryCapReached(retries, limit)) {
    const message = `retries: entering ${to} again would be retry ${retries} in this run, over the cap of ${limit}`;
    return { ok: true, value: stopAtCap(step, 'retries', limit, retries, message, stall) };
  }
  const counters = countersOf(step, step.turns + 1, withRetries(step.retries, to, retries));
  return {
    ok: true,
    value: finishStep(step, to, statusOf(next.kind), counters, stall, null, hit),
  };
}

/** Stops a step at the usage cap it broke, with the message that names the cap and the value. */
function stopAtUsageCap(step: Step, cap: UsageCap): MachineSnapshot {
  const { caps } = step;
  switch (cap) {
    case 'wallTimeMs': {
      const message = `wallTimeMs: ${step.elapsedMs} ms of work in this run, over the cap of ${caps.wallTimeMs} ms`;
      return stopAtCap(step, 'wallTimeMs', caps.wallTimeMs, step.elapsedMs, message, step.stall);
    }
    case 'costUsd': {
      const spent = fromMicros(step.costMicros);
      const message = `costUsd: ${spent} USD spent in this session, over the cap of ${caps.costUsd} USD`;
      return stopAtCap(step, 'costUsd', caps.costUsd, spent, message, step.stall);
    }
    case 'tokens': {
      const message = `tokens: ${step.tokens} tokens used in this session, over the cap of ${caps.tokens}`;
      return stopAtCap(step, 'tokens', caps.tokens, step.tokens, message, step.stall);
    }
    case 'turns': {
      const message = `turns: turn ${step.turns + 1} of this run would exceed the cap of ${caps.turns}`;
      return stopAtCap(step, 'turns', caps.turns, step.turns + 1, message, step.stall);
    }
    default: {
      const unknown: never = cap;
      throw new Error(`unreachable: usage cap ${String(unknown)}`);
    }
  }
}

/**
 * Where `outcome` goes from `state`: the first target whose guard passes; or the refusal,
 * `outcome_rejected` when the state does not accept the outcome, `guard_rejected` when no
 * guard passed or one threw.
 */
export function acceptedTarget(
  machine: CompiledMachine,
  where: string,
  state: CompiledState,
  outcome: string,
  snapshot: MachineSnapshot,
  now: number,
  event: Pick<PendingEvent, 'confidence' | 'violations' | 'reason'>,
): StepOutcome | string {
  const candidates = state.on.get(outcome);
  if (candidates === undefined) return rejected(machine, where, state, outcome);
  const target = resolveTarget(machine, state.name, outcome, candidates, snapshot, now, event);
  return target === null ? guardRefused(machine, where, state.name, outcome) : target;
}

/** `outcome_rejected`: the state does not accept the outcome; the message lists what it does. */
function rejected(
  machine: CompiledMachine,
  where: string,
  state: CompiledState,
  outcome: string,
): StepOutcome {
  const accepted = [...state.on.keys()].join(', ');
  return failure(
    'outcome_rejected',
    `${where}: ${machine.id} in ${state.name} does not accept ${show(outcome)}; it accepts ${accepted}.`,
    'event.outcome',
    state.name,
  );
}

/** `guard_rejected`: no guard of the outcome passed. */
function guardRefused(
  machine: CompiledMachine,
  where: string,
  state: string,
  outcome: string,
): StepOutcome {
  return failure(
    'guard_rejected',
    `${where}: ${machine.id} in ${state}: no guard of ${outcome} passed.`,
    'event.outcome',
    state,
  );
}
