import { checkOptionKeys, isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import {
  controllerArgument,
  isCount,
  isTime,
  show,
  TIME_RULE,
  unknownKey,
} from '../internal/checks.ts';
import { dayOf, zoneOf } from '../internal/day-of.ts';
import { fromMicros, isUsd, toMicros } from '../internal/micro-usd.ts';
import { trust } from '../internal/trusted-snapshots.ts';

/**
 * The caps of a {@link Budget}; `null` means no cap. The whole-session caps have the names of
 * the machine caps they match (`costUsd`, `tokens`); the scoped ones say their scope.
 *
 * @public
 */
export interface BudgetCaps {
  /** Hard: USD spent and reserved in the session. */
  readonly costUsd: number | null;
  /** Hard: USD spent and reserved on the current day. */
  readonly dayUsd: number | null;
  /** Soft: USD spent and reserved in one turn; crossing it raises `turn_ceiling`. */
  readonly turnSoftUsd: number | null;
  /** Hard: tokens spent and reserved in the session. */
  readonly tokens: number | null;
  /** Hard: tokens spent and reserved on the current day. */
  readonly dayTokens: number | null;
}

/** The name of one budget cap. @public */
export type BudgetCapName = keyof BudgetCaps;

/**
 * Budget caps as a caller writes them: any of {@link BudgetCaps}; the rest keep their values.
 *
 * @public
 */
export type BudgetCapsInput = Partial<BudgetCaps>;

/**
 * The default budget: 2 USD per session, 5 USD per day, a soft ceiling of 0.30 USD per turn,
 * no token caps.
 *
 * @public
 */
export const DEFAULT_BUDGET_CAPS: BudgetCaps = Object.freeze({
  costUsd: 2,
  dayUsd: 5,
  turnSoftUsd: 0.3,
  tokens: null,
  dayTokens: null,
});

/** A call's hold on the budget, until it is settled. @public */
export interface Reservation {
  /** The host's id for the call. */
  readonly id: string;
  /** USD held. */
  readonly usd: number;
  /** Tokens held. */
  readonly tokens: number;
  /** The turn the call belongs to. */
  readonly turn: string;
  /** When it was made, in epoch milliseconds. */
  readonly at: number;
}

/** The soft per-turn ceiling was crossed: summarise and ask the user. @public */
export interface TurnCeilingSignal {
  /** Always `turn_ceiling`. */
  readonly type: 'turn_ceiling';
  /** The turn's key. */
  readonly turn: string;
  /** USD spent and reserved in the turn. */
  readonly usd: number;
  /** The ceiling, `caps.turnSoftUsd`. */
  readonly ceiling: number;
}

/** A call cost more than it reserved (the money was spent, and is recorded). @public */
export interface OverrunSignal {
  /** Always `overrun`. */
  readonly type: 'overrun';
  /** The reservation's id. */
  readonly id: string;
  /** What it reserved. */
  readonly reservedUsd: number;
  /** What it cost. */
  readonly usd: number;
}

/** What a budget operation raised, for the host to act on. @public */
export type BudgetSignal = TurnCeilingSignal | OverrunSignal;

/**
 * A session's spending ledger: deeply frozen plain JSON. Every operation returns a new one.
 *
 * @public
 */
export interface Budget {
  /** Always `plankit.budget`. */
  readonly format: 'plankit.budget';
  /** The format version, 2 (version 1 named the whole-session caps `sessionUsd` and `sessionTokens`). */
  readonly version: 2;
  /** The caps in force. */
  readonly caps: BudgetCaps;
  /** The IANA time zone that decides the day. */
  readonly timeZone: string;
  /** What the session spent. */
  readonly session: {
    /** USD. */
    readonly spentUsd: number;
    /** Tokens. */
    readonly spentTokens: number;
  };
  /** What was spent on the current day. */
  readonly day: {
    /** The date, `YYYY-MM-DD`, in `timeZone`. */
    readonly date: string;
    /** USD. */
    readonly spentUsd: number;
    /** Tokens. */
    readonly spentTokens: number;
  };
  /** The current turn. */
  readonly turn: {
    /** Its key, or null before the first reservation. */
    readonly key: string | null;
    /** USD settled in it. */
    readonly spentUsd: number;
  };
  /** Calls reserved and not yet settled, oldest first. */
  readonly reservations: readonly Reservation[];
  /** What the latest operation raised. */
  readonly signals: readonly BudgetSignal[];
  /** When the latest operation happened, in epoch milliseconds. */
  readonly updatedAt: number;
}

/** Options of {@link createBudget}. @public */
export interface BudgetOptions {
  /** When the session starts, in epoch milliseconds; decides the first day. */
  readonly now: number;
  /**
   * Caps over the defaults: 2 USD per session, 5 USD per day, a soft 0.30 USD per turn, no
   * token caps.
   */
  readonly caps?: BudgetCapsInput | undefined;
  /** The IANA time zone of the day (`Europe/Berlin`); `UTC` by default. */
  readonly timeZone?: string | undefined;
  /** USD the user's other sessions already spent today. */
  readonly spentTodayUsd?: number | undefined;
  /** Tokens the user's other sessions already spent today. */
  readonly spentTodayTokens?: number | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'now',
  'caps',
  'timeZone',
  'spentTodayUsd',
  'spentTodayTokens',
]);
const CAP_KEYS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_BUDGET_CAPS));
const USD_CAPS: ReadonlySet<string> = new Set(['costUsd', 'dayUsd', 'turnSoftUsd']);
const EMPTY: readonly never[] = Object.freeze([]);

/** Checks partial budget caps; the field and rule of the first problem, or null. */
export function budgetCapsProblem(
  caps: unknown,
  prefix: string,
): { field: string; rule: string } | null {
  if (!isRecord(caps)) return { field: prefix, rule: 'must be an object' };
  const extra = unknownKey(caps, CAP_KEYS);
  if (extra !== undefined) return { field: `${prefix}.${extra}`, rule: 'is not a budget cap' };
  for (const cap of CAP_KEYS) {
    const value = caps[cap];
    if (value === undefined || value === null) continue;
    const ok = USD_CAPS.has(cap) ? isUsd(value) : isCount(value);
    if (!ok) {
      const kind = USD_CAPS.has(cap) ? 'a USD amount >= 0' : 'a non-negative integer';
      return { field: `${prefix}.${cap}`, rule: `must be null or ${kind}, got ${show(value)}` };
    }
  }
  return null;
}

/** `caps` with the defined values of a checked `patch`, amounts rounded to micro-dollars. */
export function mergeBudgetCaps(caps: BudgetCaps, patch: BudgetCapsInput | undefined): BudgetCaps {
  const out: Record<string, number | null> = { ...caps };
  for (const key of CAP_KEYS) {
    const value = patch === undefined ? undefined : patch[key as BudgetCapName];
    if (value === undefined) continue;
    out[key] = value !== null && USD_CAPS.has(key) ? fromMicros(toMicros(value)) : value;
  }
  return Object.freeze(out) as unknown as BudgetCaps;
}

function argument(field: string, rule: string): ControllerError {
  return new ControllerError('argument_invalid', `createBudget: ${field} ${rule}.`, { field });
}

/**
 * Opens a budget for a session. No prices are built in: costs come from {@link usageCost} with
 * the host's own price table.
 *
 * @throws ControllerError `argument_invalid` naming the option: an unknown key, a bad cap, an
 *   unknown time zone, a non-finite `now`
 * @example
 * ```ts
 * let budget = createBudget({ now: Date.now(), timeZone: 'Europe/Berlin', caps: { costUsd: 1 } });
 * ```
 * @public
 */
export function createBudget(options: BudgetOptions): Budget {
  if (!isRecord(options)) throw argument('options', 'must be an object');
  checkOptionKeys('createBudget', options, OPTION_KEYS, 'options.', controllerArgument);
  const { now, caps, timeZone = 'UTC', spentTodayUsd = 0, spentTodayTokens = 0 } = options;
  if (!isTime(now)) throw argument('options.now', `${TIME_RULE}, got ${show(now)}`);
  const capsIssue = caps === undefined ? null : budgetCapsProblem(caps, 'options.caps');
  if (capsIssue !== null) throw argument(capsIssue.field, capsIssue.rule);
  const zone = typeof timeZone === 'string' ? zoneOf(timeZone) : null;
  if (zone === null)
    throw argument('options.timeZone', `must be an IANA time zone, got ${show(timeZone)}`);
  if (!isUsd(spentTodayUsd))
    throw argument(
      'options.spentTodayUsd',
      `must be a USD amount >= 0, got ${show(spentTodayUsd)}`,
    );
  if (!isCount(spentTodayTokens)) {
    throw argument(
      'options.spentTodayTokens',
      `must be a non-negative integer, got ${show(spentTodayTokens)}`,
    );
  }
  return Object.freeze(
    trust<Budget>({
      format: 'plankit.budget',
      version: 2,
      caps: mergeBudgetCaps(DEFAULT_BUDGET_CAPS, caps),
      timeZone: zone,
      session: Object.freeze({ spentUsd: 0, spentTokens: 0 }),
      day: Object.freeze({
        date: dayOf(zone, now),
        spentUsd: fromMicros(toMicros(spentTodayUsd)),
        spentTokens: spentTodayTokens,
      }),
      turn: Object.freeze({ key: null, spentUsd: 0 }),
      reservations: EMPTY,
      signals: EMPTY,
      updatedAt: now,
    }),
  );
}
