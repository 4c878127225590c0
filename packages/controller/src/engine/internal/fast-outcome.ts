import { isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../../controller-error.ts';
import { isCount, isTime, isUnit } from '../../internal/checks.ts';
import { fromMicros, isUsd, toMicros } from '../../internal/micro-usd.ts';
import { trust } from '../../internal/trusted-snapshots.ts';
import type { Counters, MachineSnapshot } from '../machine-snapshot.ts';
import type { TraceEntry } from '../trace-entry.ts';
import {
  retryCapReached,
  retryCount,
  retryLimit,
  softCostCrossed,
  softTurnsCrossed,
  stallReached,
  unstorableTotal,
  usageCapReached,
} from './cap-rules.ts';
import type { CompiledMachine } from './compiled-machine.ts';
import { NO_STALL, statusOf, withRetries } from './finish-step.ts';
import { checkReason, EMPTY } from './normalize-event.ts';
import { withTraceAppended } from './trace-log.ts';

/**
 * The common step, done without the general path's intermediate objects: a running machine, an
 * event with no tool, violations or adaptations, an outcome whose first candidate is unguarded,
 * and no cap, retry limit or soft limit reached. Anything else returns null and takes the
 * general path, which gives the same snapshot (replay checks every step against it) and every
 * error. The result is built field for field as `finishStep` builds it, so stored JSON is identical.
 */
export function fastOutcome(
  machine: CompiledMachine,
  prev: MachineSnapshot,
  event: unknown,
): MachineSnapshot | null {
  if (prev.status !== 'running' || !isRecord(event)) return null;
  for (const key in event) {
    switch (key) {
      case 'outcome':
      case 'now':
      case 'confidence':
      case 'costUsd':
      case 'tokens':
      case 'reason':
        continue;
      default:
        return null;
    }
  }
  const { outcome, now, confidence, costUsd, tokens } = event;
  if (typeof outcome !== 'string') return null;
  const state = machine.states.get(prev.state);
  const first = state?.on.get(outcome)?.[0];
  if (state === undefined || first === undefined || first.guard !== null) return null;
  if (!isTime(now) || now < prev.updatedAt) return null;
  if (confidence !== undefined && confidence !== null && !isUnit(confidence)) return null;
  if (costUsd !== undefined && !isUsd(costUsd)) return null;
  if (tokens !== undefined && !isCount(tokens)) return null;
  const reason = checkReason('transition', 'event.reason', event['reason']);
  if (reason instanceof ControllerError) return null;

  const { caps, soft, counters: base } = prev;
  const baseMicros = toMicros(base.costUsd);
  const eventMicros = costUsd === undefined ? 0 : toMicros(costUsd);
  const costMicros = baseMicros + eventMicros;
  const spentTokens = base.tokens + (tokens ?? 0);
  const elapsedMs = base.elapsedMs + (state.kind === 'work' ? now - prev.updatedAt : 0);
  const turns = base.turns + 1;
  // Every cap rule is the general step's own: any rule that speaks leaves it to that step.
  if (unstorableTotal(eventMicros, costMicros, spentTokens) !== null) return null;
  if (usageCapReached(caps, elapsedMs, costMicros, spentTokens, base.turns) !== null) return null;
  if (stallReached(caps, NO_STALL.count)) return null;
  const to = first.target;
  const next = machine.states.get(to);
  if (next === undefined) return null;
  const retries = retryCount(base.retries, to);
  if (retryCapReached(retries, retryLimit(next, caps))) return null;
  if (softTurnsCrossed(soft, base.turns, turns)) return null;
  if (softCostCrossed(soft, baseMicros, costMicros)) return null;

  const status = statusOf(next.kind);
  const counters: Counters = Object.freeze({
    run: base.run,
    turns,
    retries: withRetries(base.retries, to, retries),
    elapsedMs,
    totalTurns: base.totalTurns + 1,
    costUsd: costMicros === baseMicros ? base.costUsd : fromMicros(costMicros),
    tokens: spentTokens,
  });
  const entry: TraceEntry = Object.freeze({
    kind: 'outcome',
    at: now,
    run: base.run,
    stage: prev.state,
    outcome,
    from: prev.state,
    to,
    status,
    tool: null,
    tool_signature: null,
    duration_ms: now - prev.updatedAt,
    confidence: (confidence as number | null | undefined) ?? null,
    cost_delta: eventMicros === 0 ? 0 : fromMicros(eventMicros),
    tokens: (tokens as number | undefined) ?? 0,
    violations: EMPTY,
    adaptations: EMPTY,
    reason,
    cap: null,
    caps: null,
    soft: null,
    signals: EMPTY,
  });
  const fields: Omit<MachineSnapshot, 'trace'> = {
    format: 'plankit.machine-snapshot',
    version: 1,
    machine: prev.machine,
    state: to,
    status,
    caps,
    soft,
    counters,
    stall: NO_STALL,
    frozen: null,
    startedAt: prev.startedAt,
    updatedAt: now,
    signals: EMPTY,
  };
  return Object.freeze(trust(withTraceAppended(fields, prev, entry)));
}
