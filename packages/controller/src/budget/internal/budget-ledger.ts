import { dayOf } from '../../internal/day-of.ts';
import { toMicros } from '../../internal/micro-usd.ts';
import type { Budget } from '../create-budget.ts';

/** The day ledger at `now`: the budget's own, or a fresh one when `now` is on a later day. */
export function dayAt(budget: Budget, now: number): Budget['day'] {
  const date = dayOf(budget.timeZone, now);
  return date === budget.day.date
    ? budget.day
    : Object.freeze({ date, spentUsd: 0, spentTokens: 0 });
}

/** Micro-dollars and tokens held by outstanding reservations, all of them or one turn's. */
export function held(
  budget: Budget,
  turn?: string,
): { readonly micros: number; readonly tokens: number } {
  let micros = 0;
  let tokens = 0;
  for (const reservation of budget.reservations) {
    if (turn !== undefined && reservation.turn !== turn) continue;
    micros += toMicros(reservation.usd);
    tokens += reservation.tokens;
  }
  return { micros, tokens };
}
