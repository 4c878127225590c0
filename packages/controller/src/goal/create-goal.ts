import { checkOptionKeys, isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { initialSnapshot } from '../engine/initial-snapshot.ts';
import { controllerArgument, isCount, isTime, show, TIME_RULE } from '../internal/checks.ts';
import { fromMicros, isUsd, toMicros } from '../internal/micro-usd.ts';
import { unstorableRefusal } from '../internal/unstorable-refusal.ts';
import { trustGoal } from './decide-goal.ts';
import { goalMachine } from './goal-machine.ts';
import {
  GOAL_TEXT_LIMIT,
  type Goal,
  type GoalBudget,
  type ReplanGuardOptions,
} from './goal-state.ts';

/** Options of {@link createGoal}. @public */
export interface GoalOptions {
  /** What the agent works toward: 1-2,000 characters. */
  readonly objective: string;
  /** How to tell it is met: 1-2,000 characters. */
  readonly criteria?: string | undefined;
  /** Caps over the defaults (100 turns, 2 USD, no token or time cap); `null` lifts one. */
  readonly budget?: Partial<GoalBudget> | undefined;
  /** The re-plan guard's thresholds over the defaults (4 churn turns, 2 repeats). */
  readonly guard?: Partial<ReplanGuardOptions> | undefined;
  /** When the goal is set, in epoch milliseconds. */
  readonly now: number;
}

/** The default goal budget: 100 turns and 2 USD (the budget manager's session cap). @public */
export const DEFAULT_GOAL_BUDGET: GoalBudget = Object.freeze({
  tokens: null,
  costUsd: 2,
  turns: 100,
  wallTimeMs: null,
});

/**
 * The default re-plan guard: 4 turns that change the plan with no step done, or 2 removed
 * steps that come back. An honest plan finishes a step long before either.
 *
 * @public
 */
export const DEFAULT_REPLAN_GUARD: ReplanGuardOptions = Object.freeze({
  churnTurns: 4,
  repeats: 2,
});

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'objective',
  'criteria',
  'budget',
  'guard',
  'now',
]);
const BUDGET_KEYS: ReadonlySet<string> = new Set(['tokens', 'costUsd', 'turns', 'wallTimeMs']);
const GUARD_KEYS: ReadonlySet<string> = new Set(['churnTurns', 'repeats']);
const EMPTY: readonly never[] = Object.freeze([]);

function argument(field: string, rule: string): ControllerError {
  return new ControllerError('argument_invalid', `createGoal: ${field} ${rule}.`, { field });
}

function checkText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > GOAL_TEXT_LIMIT) {
    throw argument(field, `must be 1-${GOAL_TEXT_LIMIT} characters, got ${show(value)}`);
  }
  const refusal = unstorableRefusal('createGoal', value, field);
  if (refusal !== undefined) {
    throw new ControllerError('argument_invalid', refusal.message, { field: refusal.field });
  }
  return value.trim();
}

function checkBudget(input: unknown): GoalBudget {
  if (input === undefined) return DEFAULT_GOAL_BUDGET;
  if (!isRecord(input)) throw argument('options.budget', 'must be an object');
  checkOptionKeys('createGoal', input, BUDGET_KEYS, 'options.budget.', controllerArgument);
  const out: Record<string, number | null> = { ...DEFAULT_GOAL_BUDGET };
  for (const key of BUDGET_KEYS) {
    const value = input[key];
    if (value === undefined) continue;
    if (value === null) {
      out[key] = null;
    } else if (key === 'costUsd') {
      if (!isUsd(value))
        throw argument(
          'options.budget.costUsd',
          `must be null or a USD amount >= 0, got ${show(value)}`,
        );
      out[key] = fromMicros(toMicros(value));
    } else {
      if (!isCount(value))
        throw argument(
          `options.budget.${key}`,
          `must be null or a non-negative integer, got ${show(value)}`,
        );
      out[key] = value;
    }
  }
  return Object.freeze(out) as unknown as GoalBudget;
}

function checkGuard(input: unknown): ReplanGuardOptions {
  if (input === undefined) return DEFAULT_REPLAN_GUARD;
  if (!isRecord(input)) throw argument('options.guard', 'must be an object');
  checkOptionKeys('createGoal', input, GUARD_KEYS, 'options.guard.', controllerArgument);
  const out: Record<string, number> = { ...DEFAULT_REPLAN_GUARD };
  for (const key of GUARD_KEYS) {
    const value = input[key];
    if (value === undefined) continue;
    if (!isCount(value) || value < 1)
      throw argument(`options.guard.${key}`, `must be an integer >= 1, got ${show(value)}`);
    out[key] = value;
  }
  return Object.freeze(out) as unknown as ReplanGuardOptions;
}

/**
 * A new, `active` goal: nothing used, no verdict, the re-plan guard fresh, the decision machine
 * in `WORKING`. Dispatch it as `SetGoal` to keep it in a session.
 *
 * @throws ControllerError `argument_invalid` naming the option: an unknown key, an objective or
 *   criteria of no text, too long or unstorable, a bad cap or guard threshold, a bad `now`
 * @example
 * ```ts
 * const goal = createGoal({
 *   objective: 'Migrate the billing service to the new queue',
 *   criteria: 'All billing tests pass on the new queue',
 *   budget: { tokens: 2_000_000, costUsd: 5, turns: 60 },
 *   now: Date.now(),
 * });
 * ```
 * @public
 */
export function createGoal(options: GoalOptions): Goal {
  if (!isRecord(options)) throw argument('options', 'must be an object');
  checkOptionKeys('createGoal', options, OPTION_KEYS, 'options.', controllerArgument);
  const { now } = options;
  if (!isTime(now)) throw argument('options.now', `${TIME_RULE}, got ${show(now)}`);
  const objective = checkText(options.objective, 'options.objective');
  const criteria =
    options.criteria === undefined ? null : checkText(options.criteria, 'options.criteria');
  const budget = checkBudget(options.budget);
  const guard = checkGuard(options.guard);
  return trustGoal(
    Object.freeze({
      format: 'plankit.goal',
      version: 1,
      objective,
      criteria,
      status: 'active',
      budget,
      counters: Object.freeze({ turns: 0, tokens: 0, costUsd: 0, elapsedMs: 0, checks: 0 }),
      verdict: null,
      reason: null,
      question: null,
      guard: Object.freeze({
        options: guard,
        done: 0,
        objective: null,
        titles: EMPTY,
        churn: 0,
        removed: EMPTY,
        returned: 0,
      }),
      machine: initialSnapshot(goalMachine, { now }),
      setAt: now,
      updatedAt: now,
    }),
  );
}
