import type { Result } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import type { ControllerError } from '../controller-error.ts';
import { failure } from '../engine/internal/failure.ts';
import { isCount, isText, isTime, show, TIME_RULE, unknownKey } from '../internal/checks.ts';
import { fromMicros, isUsd, MAX_TOTAL_MICROS, toMicros } from '../internal/micro-usd.ts';
import { trust } from '../internal/trusted-snapshots.ts';
import { ensureBudget } from './budget-from-json.ts';
import type { Budget, BudgetSignal, Reservation } from './create-budget.ts';
import { dayAt, held } from './internal/budget-ledger.ts';

/** What {@link settleBudget} takes. @public */
export interface SettleInput {
  /** The id the call was reserved under. */
  readonly id: string;
  /** What the call really cost, in USD (0 to release a call that spent nothing). */
  readonly usd: number;
  /** The tokens it really used (0 by default). */
  readonly tokens?: number | undefined;
  /**
   * When, in epoch milliseconds. A time earlier than the budget's `updatedAt` (a clock that
   * stepped back) is taken as `updatedAt`, so money already spent can always be settled.
   */
  readonly now: number;
}

const KEYS: ReadonlySet<string> = new Set(['id', 'usd', 'tokens', 'now']);

function bad(field: string, rule: string): { ok: false; error: ControllerError } {
  return failure('input_invalid', `settleBudget: ${field} ${rule}.`, field);
}

/**
 * Records what a reserved call really cost and releases its hold. The amount is recorded as
 * it is, even above the reservation, because the money was spent: that raises an `overrun`
 * signal. Crossing the soft per-turn ceiling raises `turn_ceiling`. A `now` earlier than the
 * budget's `updatedAt` is clamped to it, so a clock that steps back never blocks settling money
 * already spent (reservations, which spend nothing yet, refuse such a clock instead).
 *
 * @returns the new budget, or a {@link ControllerError}: `reservation_unknown`,
 *   `input_invalid`, `snapshot_invalid`
 * @example
 * ```ts
 * const cost = usageCost(prices, response.usage);
 * const settled = settleBudget(budget, { id: 'call-1', usd: cost.ok ? cost.value : 0, now });
 * ```
 * @public
 */
export function settleBudget(budget: Budget, input: SettleInput): Result<Budget, ControllerError> {
  const checked = ensureBudget(budget, 'settleBudget');
  if (!checked.ok) return checked;
  const prev = checked.value;
  if (!isRecord(input)) return bad('input', 'must be an object');
  const extra = unknownKey(input, KEYS);
  if (extra !== undefined) return bad(`input.${extra}`, 'is not a key');
  const { id, usd, tokens = 0 } = input;
  if (!isText(id, 128)) return bad('input.id', `must be 1-128 characters, got ${show(id)}`);
  if (!isUsd(usd)) return bad('input.usd', `must be a USD amount >= 0, got ${show(usd)}`);
  if (!isCount(tokens))
    return bad('input.tokens', `must be a non-negative integer, got ${show(tokens)}`);
  if (!isTime(input.now)) return bad('input.now', `${TIME_RULE}, got ${show(input.now)}`);
  // The money was spent whatever the clock says: a clock that stepped back settles at the
  // budget's own time (never before any reservation's), so time never runs backwards here.
  const now = Math.max(input.now, prev.updatedAt);
  let index = -1;
  for (let i = 0; i < prev.reservations.length; i++) if (prev.reservations[i]?.id === id) index = i;
  const reservation = prev.reservations[index];
  if (reservation === undefined) {
    return failure(
      'reservation_unknown',
      `settleBudget: no reservation ${show(id)} is held.`,
      'input.id',
    );
  }

  const micros = toMicros(usd);
  const day = dayAt(prev, now);
  // Totals a budget could not store back are refused before anything is recorded.
  const sessionMicros = toMicros(prev.session.spentUsd) + micros;
  const dayMicros = toMicros(day.spentUsd) + micros;
  if (micros > 0 && Math.max(sessionMicros, dayMicros) > MAX_TOTAL_MICROS) {
    return bad(
      'input.usd',
      `would take spending past the ${fromMicros(MAX_TOTAL_MICROS)} USD a budget stores`,
    );
  }
  const sessionTokens = prev.session.spentTokens + tokens;
  const dayTokens = day.spentTokens + tokens;
  if (!Number.isSafeInteger(Math.max(sessionTokens, dayTokens))) {
    return bad(
      'input.tokens',
      `would take spending past ${Number.MAX_SAFE_INTEGER} tokens, more than a budget stores`,
    );
  }
  const signals: BudgetSignal[] = [];
  if (micros > toMicros(reservation.usd)) {
    signals.push(
      Object.freeze({ type: 'overrun', id, reservedUsd: reservation.usd, usd: fromMicros(micros) }),
    );
  }
  let turn = prev.turn;
  if (reservation.turn === prev.turn.key) {
    const spent = toMicros(prev.turn.spentUsd);
    const before = spent + held(prev, reservation.turn).micros;
    const after = before - toMicros(reservation.usd) + micros;
    const ceiling = prev.caps.turnSoftUsd;
    if (ceiling !== null && before <= toMicros(ceiling) && after > toMicros(ceiling)) {
      signals.push(
        Object.freeze({
          type: 'turn_ceiling',
          turn: reservation.turn,
          usd: fromMicros(after),
          ceiling,
        }),
      );
    }
    turn = Object.freeze({ key: prev.turn.key, spentUsd: fromMicros(spent + micros) });
  }
  const reservations: Reservation[] = [];
  for (let i = 0; i < prev.reservations.length; i++) {
    const held = prev.reservations[i];
    if (i !== index && held !== undefined) reservations.push(held);
  }
  return {
    ok: true,
    value: Object.freeze(
      trust<Budget>({
        ...prev,
        session: Object.freeze({
          spentUsd: fromMicros(sessionMicros),
          spentTokens: sessionTokens,
        }),
        day: Object.freeze({
          date: day.date,
          spentUsd: fromMicros(dayMicros),
          spentTokens: dayTokens,
        }),
        turn,
        reservations: Object.freeze(reservations),
        signals: Object.freeze(signals),
        updatedAt: now,
      }),
    ),
  };
}
