import { MAX_TOTAL_MICROS, toMicros } from '../../internal/micro-usd.ts';
import type { Caps, SoftLimits } from '../default-caps.ts';
import type { CompiledState } from './compiled-machine.ts';

// Each cap rule is written once, here: the general step (route-outcome.ts, finish-step.ts)
// acts on what a rule says, and the fast path (fast-outcome.ts) leaves to the general step
// whenever a rule says anything.

/** A cap on what a run or session uses, in the order a step checks them. */
export type UsageCap = 'wallTimeMs' | 'costUsd' | 'tokens' | 'turns';

/**
 * The first usage cap a step breaks (wall time, cost, tokens, turns, in that order), or null.
 *
 * @param elapsedMs - work time in this run, counting the step
 * @param costMicros - the session's cost in micro-USD, counting the step
 * @param tokens - the session's tokens, counting the step
 * @param turns - turns in this run before the step; the step would be turn `turns + 1`
 */
export function usageCapReached(
  caps: Caps,
  elapsedMs: number,
  costMicros: number,
  tokens: number,
  turns: number,
): UsageCap | null {
  if (caps.wallTimeMs !== null && elapsedMs > caps.wallTimeMs) return 'wallTimeMs';
  if (caps.costUsd !== null && costMicros > toMicros(caps.costUsd)) return 'costUsd';
  if (caps.tokens !== null && tokens > caps.tokens) return 'tokens';
  if (caps.turns !== null && turns + 1 > caps.turns) return 'turns';
  return null;
}

/** True when `count` identical tool calls in a row reach the stall cap. */
export function stallReached(caps: Caps, count: number): boolean {
  return caps.stall !== null && count >= caps.stall;
}

/** The retry that entering `to` would be in this run: 0 on a first entry. */
export function retryCount(retries: Readonly<Partial<Record<string, number>>>, to: string): number {
  return Object.hasOwn(retries, to) ? (retries[to] ?? 0) + 1 : 0;
}

/** The retry limit of entering `next`: its own when it sets one, else the machine's cap. */
export function retryLimit(next: CompiledState, caps: Caps): number | null {
  return next.retries !== undefined ? next.retries : caps.retries;
}

/**
 * True when retry `count` is past `limit`. A first entry (count 0) never is, as every limit
 * is a non-negative integer.
 */
export function retryCapReached(count: number, limit: number | null): boolean {
  return limit !== null && count > limit;
}

/** True when this run's turns go from `before` to `after` across the soft turn limit. */
export function softTurnsCrossed(soft: SoftLimits, before: number, after: number): boolean {
  return soft.turns !== null && before < soft.turns && after >= soft.turns;
}

/** True when the session's cost goes from `beforeMicros` to `afterMicros` across the soft limit. */
export function softCostCrossed(
  soft: SoftLimits,
  beforeMicros: number,
  afterMicros: number,
): boolean {
  if (soft.costUsd === null) return false;
  const limit = toMicros(soft.costUsd);
  return beforeMicros < limit && afterMicros >= limit;
}

/**
 * The total a step would take past what a snapshot stores, or null. Only a step that adds
 * cost is refused for cost, so a stored total already past the line still takes free events.
 */
export function unstorableTotal(
  eventMicros: number,
  costMicros: number,
  tokens: number,
): 'costUsd' | 'tokens' | null {
  if (eventMicros > 0 && costMicros > MAX_TOTAL_MICROS) return 'costUsd';
  return Number.isSafeInteger(tokens) ? null : 'tokens';
}
