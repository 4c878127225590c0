import type { Result } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { failure, unstorableError } from '../engine/internal/failure.ts';
import { checkNow } from '../engine/internal/normalize-event.ts';
import { isCount, isText, show, unknownKey } from '../internal/checks.ts';
import { fromMicros, isUsd, toMicros } from '../internal/micro-usd.ts';
import { trust } from '../internal/trusted-snapshots.ts';
import { ensureBudget } from './budget-from-json.ts';
import { MAX_RESERVATIONS } from './budget-state.ts';
import type { Budget, BudgetCapName, BudgetSignal } from './create-budget.ts';
import { dayAt, held } from './internal/budget-ledger.ts';
import { microCap, passesCap } from './internal/hard-cap.ts';

/** What {@link reserveBudget} takes. @public */
export interface ReserveInput {
  /** The host's id for the call, 1-128 characters, unique among outstanding reservations. */
  readonly id: string;
  /** USD to hold: the most the call can cost (see {@link usageCost}). */
  readonly usd: number;
  /** Tokens to hold (0 by default). */
  readonly tokens?: number | undefined;
  /** The turn the call belongs to, 1-128 characters; by default the call's own id. */
  readonly turn?: string | undefined;
  /** When, in epoch milliseconds; not earlier than the budget's `updatedAt`. */
  readonly now: number;
}

const KEYS: ReadonlySet<string> = new Set(['id', 'usd', 'tokens', 'turn', 'now']);
const NO_SIGNALS: readonly never[] = Object.freeze([]);

function bad(field: string, rule: string): { ok: false; error: ControllerError } {
  return failure('input_invalid', `reserveBudget: ${field} ${rule}.`, field);
}

// The cap names what to raise; the field names the input that asked for too much.
function exceeded(cap: BudgetCapName, message: string): { ok: false; error: ControllerError } {
  return {
    ok: false,
    error: new ControllerError('budget_exceeded', `reserveBudget: ${message}.`, {
      field: 'input.usd',
      cap,
    }),
  };
}

function usd(micros: number): string {
  return `${fromMicros(micros)} USD`;
}

/**
 * Holds `usd` (and `tokens`) for a call about to be made. Refused when the hold would take
 * spent plus reserved over a hard cap (session, then day, then tokens), so reservations, however
 * interleaved, never add up past one. Crossing the soft per-turn ceiling is not an error: the
 * new budget carries a `turn_ceiling` signal.
 *
 * At most 10,000 reservations are held at once, the most
 * {@link budgetFromJSON} reads back: one more is `reservation_limit`. `now` must not be earlier
 * than the budget's `updatedAt`: a reservation on a clock that stepped back is refused (nothing
 * was spent yet, so refusing is safe); pass `Math.max(now, budget.updatedAt)` to go on.
 *
 * @returns the new budget, or a {@link ControllerError}: `budget_exceeded` (its `cap` names
 *   the cap), `reservation_duplicate`, `reservation_limit`, `input_invalid`, `snapshot_invalid`
 * @example
 * ```ts
 * const estimate = usageCost(prices, { model, inputTokens: 1200, outputTokens: 800 });
 * const held = estimate.ok ? reserveBudget(budget, { id: 'call-1', usd: estimate.value, now }) : estimate;
 * if (held.ok) budget = held.value;
 * ```
 * @public
 */
export function reserveBudget(
  budget: Budget,
  input: ReserveInput,
): Result<Budget, ControllerError> {
  const checked = ensureBudget(budget, 'reserveBudget');
  if (!checked.ok) return checked;
  const prev = checked.value;
  if (!isRecord(input)) return bad('input', 'must be an object');
  const extra = unknownKey(input, KEYS);
  if (extra !== undefined) return bad(`input.${extra}`, 'is not a key');
  const { id, usd: amount, tokens = 0, turn = id, now } = input;
  if (!isText(id, 128)) return bad('input.id', `must be 1-128 characters, got ${show(id)}`);
  if (!isUsd(amount)) return bad('input.usd', `must be a USD amount >= 0, got ${show(amount)}`);
  if (!isCount(tokens))
    return bad('input.tokens', `must be a non-negative integer, got ${show(tokens)}`);
  if (!isText(turn, 128)) return bad('input.turn', `must be 1-128 characters, got ${show(turn)}`);
  const unstorable =
    unstorableError('reserveBudget', 'input.id', id) ??
    unstorableError('reserveBudget', 'input.turn', turn);
  if (unstorable !== null) return { ok: false, error: unstorable };
  const nowError = checkNow('reserveBudget', 'input.now', now, prev.updatedAt);
  if (nowError !== null) return { ok: false, error: nowError };
  let duplicate = false;
  for (const reservation of prev.reservations) if (reservation.id === id) duplicate = true;
  if (duplicate) {
    return failure(
      'reservation_duplicate',
      `reserveBudget: a reservation ${show(id)} is already held.`,
      'input.id',
    );
  }

  // A budget holds no more reservations than budgetFromJSON reads back.
  if (prev.reservations.length >= MAX_RESERVATIONS) {
    return failure(
      'reservation_limit',
      `reserveBudget: the budget already holds ${MAX_RESERVATIONS} reservations, the most it can; settle some first.`,
      'input.id',
    );
  }
  const micros = toMicros(amount);
  const { caps } = prev;
  const hold = held(prev);
  const day = dayAt(prev, now);
  const sessionSpent = toMicros(prev.session.spentUsd);
  if (passesCap(microCap(caps.costUsd), sessionSpent + hold.micros, micros)) {
    return exceeded(
      'costUsd',
      `holding ${usd(micros)} would take the session to ${usd(sessionSpent + hold.micros + micros)} (${usd(sessionSpent)} spent, ${usd(hold.micros)} reserved), over its cap of ${caps.costUsd} USD`,
    );
  }
  const daySpent = toMicros(day.spentUsd);
  if (passesCap(microCap(caps.dayUsd), daySpent + hold.micros, micros)) {
    return exceeded(
      'dayUsd',
      `holding ${usd(micros)} would take ${day.date} to ${usd(daySpent + hold.micros + micros)} (${usd(daySpent)} spent, ${usd(hold.micros)} reserved), over its cap of ${caps.dayUsd} USD`,
    );
  }
  const sessionTokens = prev.session.spentTokens + hold.tokens + tokens;
  if (passesCap(caps.tokens, prev.session.spentTokens + hold.tokens, tokens)) {
    return exceeded(
      'tokens',
      `holding ${tokens} tokens would take the session to ${sessionTokens} tokens, over its cap of ${caps.tokens}`,
    );
  }
  const dayTokens = day.spentTokens + hold.tokens + tokens;
  if (passesCap(caps.dayTokens, day.spentTokens + hold.tokens, tokens)) {
    return exceeded(
      'dayTokens',
      `holding ${tokens} tokens would take ${day.date} to ${dayTokens} tokens, over its cap of ${caps.dayTokens}`,
    );
  }

  const current = prev.turn.key === turn ? prev.turn : Object.freeze({ key: turn, spentUsd: 0 });
  const before = toMicros(current.spentUsd) + (current === prev.turn ? held(prev, turn).micros : 0);
  const after = before + micros;
  let signals: readonly BudgetSignal[] = NO_SIGNALS;
  if (caps.turnSoftUsd !== null) {
    const ceiling = toMicros(caps.turnSoftUsd);
    if (before <= ceiling && after > ceiling) {
      signals = Object.freeze([
        Object.freeze({
          type: 'turn_ceiling',
          turn,
          usd: fromMicros(after),
          ceiling: caps.turnSoftUsd,
        }),
      ]);
    }
  }
  const reservation = Object.freeze({ id, usd: fromMicros(micros), tokens, turn, at: now });
  return {
    ok: true,
    value: Object.freeze(
      trust<Budget>({
        ...prev,
        day,
        turn: current,
        reservations: Object.freeze([...prev.reservations, reservation]),
        signals,
        updatedAt: now,
      }),
    ),
  };
}
