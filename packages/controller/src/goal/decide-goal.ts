import type { Plan, Result } from '@plankit/core';
import { clipText, escapeRefusedText, isRecord } from '@plankit/core/internal-unstable';
import { firstSpentCap } from '../budget/internal/hard-cap.ts';
import type { ControllerError } from '../controller-error.ts';
import { failure, invalid } from '../engine/internal/failure.ts';
import { checkNow } from '../engine/internal/normalize-event.ts';
import { transition } from '../engine/transition.ts';
import { isCount, show, unknownKey } from '../internal/checks.ts';
import { endSentence } from '../internal/end-sentence.ts';
import { fromMicros, isUsd, toMicros } from '../internal/micro-usd.ts';
import { type GoalOutcome, goalMachine } from './goal-machine.ts';
import {
  GOAL_TEXT_LIMIT,
  type Goal,
  type GoalCounters,
  GoalState,
  type GoalStatus,
  type GoalVerdictKind,
  type GoalVerdictRecord,
} from './goal-state.ts';
import { observePlan } from './replan-guard.ts';

/** What one turn used. @public */
export interface GoalUsage {
  /** Tokens the turn used (0 by default). */
  readonly tokens?: number | undefined;
  /** USD the turn cost (0 by default). */
  readonly costUsd?: number | undefined;
  /** Milliseconds the turn worked (0 by default). */
  readonly elapsedMs?: number | undefined;
}

/** A verifier's verdict on a goal. @public */
export interface GoalVerdict {
  /**
   * `achieved`: the goal is met. `not_yet`: keep going. `unmet`: it cannot be met, stop.
   * `unknown`: the check gave no readable answer (never taken as `achieved`).
   */
  readonly verdict: GoalVerdictKind;
  /** Why, in the verifier's words; clipped to 2,000 characters. */
  readonly reason?: string | undefined;
}

/** What {@link decideGoal} takes after a turn. @public */
export interface DecideGoalInput {
  /** The plan at the end of the turn, for the re-plan guard; `undefined` when there is none. */
  readonly plan?: Plan | null | undefined;
  /** What the turn used. */
  readonly usage?: GoalUsage | undefined;
  /** The verifier's verdict this turn, or `null` when none was asked. */
  readonly verdict?: GoalVerdict | null | undefined;
  /** When, in epoch milliseconds; not earlier than the goal's `updatedAt`. */
  readonly now: number;
}

/** Keep going; `line` is the prompt line that says why. @public */
export interface GoalContinue {
  /** Always `continue`. */
  readonly action: 'continue';
  /** One line for the agent's next prompt. */
  readonly line: string;
}

/** Stop: the goal is achieved, unmet or out of budget. @public */
export interface GoalStop {
  /** Always `stop`. */
  readonly action: 'stop';
  /** How the goal ended. */
  readonly status: 'achieved' | 'unmet' | 'budget_limited';
  /** Why, in a sentence. */
  readonly reason: string;
}

/** Ask the person: the re-plan guard saw the agent only re-planning. @public */
export interface GoalAsk {
  /** Always `ask`. */
  readonly action: 'ask';
  /** Always `blocked`. */
  readonly status: 'blocked';
  /** What the guard saw. */
  readonly reason: string;
  /** The question for the person. */
  readonly question: string;
}

/** What {@link decideGoal} decides. @public */
export type GoalDecision = GoalContinue | GoalStop | GoalAsk;

/** The goal after a turn, and the decision. @public */
export interface GoalStepResult {
  /** The goal with the turn counted; dispatch it as `GoalState` to keep it. */
  readonly goal: Goal;
  /** What the host does next. */
  readonly decision: GoalDecision;
}

const INPUT_KEYS: ReadonlySet<string> = new Set(['plan', 'usage', 'verdict', 'now']);
const USAGE_KEYS: ReadonlySet<string> = new Set(['tokens', 'costUsd', 'elapsedMs']);
const VERDICT_KEYS: ReadonlySet<string> = new Set(['verdict', 'reason']);
const VERDICTS: ReadonlySet<string> = new Set(['achieved', 'not_yet', 'unmet', 'unknown']);
const WHERE = 'decideGoal';
// What a reason quoted in a prompt line may take of it.
const QUOTE = 300;

/** The goals this copy built or checked, so a long trace is not parsed again every turn. */
const checked = new WeakSet<object>();

/** Marks a goal this package built, deeply frozen, as checked. */
export function trustGoal(goal: Goal): Goal {
  checked.add(goal);
  return goal;
}

/** The goal, checked against its schema unless this package built it. */
export function ensureGoal(goal: unknown, where: string): Result<Goal, ControllerError> {
  if (typeof goal === 'object' && goal !== null && checked.has(goal)) {
    return { ok: true, value: goal as Goal };
  }
  const parsed = GoalState.safeParse(goal);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    return failure(
      'snapshot_invalid',
      `${where}: goal is not a goal${path === '' ? '' : ` at ${path}`}: ${issue?.message ?? 'invalid'}.`,
      'goal',
    );
  }
  // A session hands back its values deeply frozen: checked once, such a goal cannot change.
  if (Object.isFrozen(goal)) checked.add(goal as object);
  return { ok: true, value: goal as Goal };
}

/**
 * The first cap the counters reached, in the budget manager's words, or null: the budget
 * manager's rule of a hard cap, asked of the next turn (a cap that any spend would pass).
 */
function capReached(goal: Goal, counters: GoalCounters): string | null {
  const { budget } = goal;
  return (
    firstSpentCap([
      { cap: 'tokens', limit: budget.tokens, used: counters.tokens },
      { cap: 'costUsd', limit: budget.costUsd, used: counters.costUsd },
      { cap: 'turns', limit: budget.turns, used: counters.turns },
      { cap: 'wallTimeMs', limit: budget.wallTimeMs, used: counters.elapsedMs },
    ])?.text ?? null
  );
}

/**
 * What the goal has used, in one short phrase: `turn 3 of 100, 1200 tokens, 0.04 of 2 USD`.
 *
 * @public
 */
export function renderGoalUsage(goal: Goal): string {
  const { budget, counters } = goal;
  const parts = [
    budget.turns === null
      ? `${counters.turns} turns`
      : `${counters.turns} of ${budget.turns} turns`,
    budget.tokens === null
      ? `${counters.tokens} tokens`
      : `${counters.tokens} of ${budget.tokens} tokens`,
    budget.costUsd === null
      ? `${counters.costUsd} USD`
      : `${counters.costUsd} of ${budget.costUsd} USD`,
  ];
  if (budget.wallTimeMs !== null) parts.push(`${counters.elapsedMs} of ${budget.wallTimeMs} ms`);
  return parts.join(', ');
}

function continueLine(goal: Goal, verdict: GoalVerdictRecord | null): string {
  let why = 'no check has accepted it yet';
  if (verdict?.verdict === 'not_yet')
    why = `the last check says not yet${verdict.reason === '' ? '' : `: ${clipText(verdict.reason, QUOTE)}`}`;
  if (verdict?.verdict === 'unknown') why = 'the last check gave no readable verdict';
  return `Goal: ${endSentence(clipText(goal.objective, QUOTE))} Keep working toward it: ${why} (${renderGoalUsage(goal)}).`;
}

/** A turn's usage, checked, with its defaults. */
interface TurnUsage {
  readonly tokens: number;
  readonly costUsd: number;
  readonly elapsedMs: number;
}

function checkUsage(usage: unknown): Result<TurnUsage, ControllerError> {
  if (usage === undefined) return { ok: true, value: { tokens: 0, costUsd: 0, elapsedMs: 0 } };
  if (!isRecord(usage)) return invalid(WHERE, 'input.usage', 'must be an object');
  const extra = unknownKey(usage, USAGE_KEYS);
  if (extra !== undefined) return invalid(WHERE, `input.usage.${extra}`, 'is not a key');
  const { tokens = 0, costUsd = 0, elapsedMs = 0 } = usage as GoalUsage;
  if (!isCount(tokens))
    return invalid(
      WHERE,
      'input.usage.tokens',
      `must be a non-negative integer, got ${show(tokens)}`,
    );
  if (!isUsd(costUsd))
    return invalid(WHERE, 'input.usage.costUsd', `must be a USD amount >= 0, got ${show(costUsd)}`);
  if (typeof elapsedMs !== 'number' || !Number.isFinite(elapsedMs) || elapsedMs < 0)
    return invalid(
      WHERE,
      'input.usage.elapsedMs',
      `must be a finite number >= 0, got ${show(elapsedMs)}`,
    );
  return { ok: true, value: { tokens, costUsd, elapsedMs } };
}

function checkVerdict(verdict: unknown): Result<GoalVerdict | null, ControllerError> {
  if (verdict === undefined || verdict === null) return { ok: true, value: null };
  if (!isRecord(verdict)) return invalid(WHERE, 'input.verdict', 'must be an object or null');
  const extra = unknownKey(verdict, VERDICT_KEYS);
  if (extra !== undefined) return invalid(WHERE, `input.verdict.${extra}`, 'is not a key');
  const kind = verdict['verdict'];
  if (typeof kind !== 'string' || !VERDICTS.has(kind))
    return invalid(
      WHERE,
      'input.verdict.verdict',
      `must be achieved, not_yet, unmet or unknown, got ${show(kind)}`,
    );
  const reason = verdict['reason'];
  if (reason !== undefined && typeof reason !== 'string')
    return invalid(WHERE, 'input.verdict.reason', `must be a string, got ${show(reason)}`);
  return { ok: true, value: { verdict: kind as GoalVerdictKind, reason: reason ?? '' } };
}

/**
 * The goal's continuation decision after a turn. Pure: it counts the turn's usage, updates
 * the re-plan guard from the plan, steps the goal machine (so the trace records the decision)
 * and decides, in this order: `achieved` on a passing verdict; `unmet` on an `unmet` verdict;
 * `budget_limited` once any counter has reached its cap, so no call is ever made past one;
 * `ask` (status `blocked`) when the re-plan guard trips; else `continue` with the prompt line
 * that says why. A verdict of `unknown` is never `achieved`.
 *
 * @returns the goal after the turn and the decision, or a {@link ControllerError}:
 *   `goal_inactive` (the goal is paused, blocked, cleared or ended: its status says which),
 *   `input_invalid` naming the field, `snapshot_invalid` for a value that is not a goal; the
 *   goal passed in is unchanged either way
 * @example
 * ```ts
 * const step = decideGoal(goal, { plan, usage: { tokens: 1800, costUsd: 0.01 }, verdict, now });
 * if (step.ok) {
 *   session.dispatch(GoalState, step.value.goal);
 *   if (step.value.decision.action === 'continue') prompt.push(step.value.decision.line);
 * }
 * ```
 * @public
 */
export function decideGoal(
  goal: Goal,
  input: DecideGoalInput,
): Result<GoalStepResult, ControllerError> {
  const ensured = ensureGoal(goal, WHERE);
  if (!ensured.ok) return ensured;
  const prev = ensured.value;
  if (prev.status !== 'active') {
    return failure(
      'goal_inactive',
      `${WHERE}: the goal is ${prev.status}, not active${prev.status === 'paused' || prev.status === 'blocked' ? '; resume it first' : ''}.`,
      'goal.status',
    );
  }
  if (!isRecord(input)) return invalid(WHERE, 'input', 'must be an object');
  const extra = unknownKey(input, INPUT_KEYS);
  if (extra !== undefined) return invalid(WHERE, `input.${extra}`, 'is not a key');
  const nowError = checkNow(WHERE, 'input.now', input.now, prev.updatedAt);
  if (nowError !== null) return { ok: false, error: nowError };
  const usage = checkUsage(input.usage);
  if (!usage.ok) return usage;
  const given = checkVerdict(input.verdict);
  if (!given.ok) return given;
  const { now } = input;
  const plan = input.plan;
  if (plan !== undefined && plan !== null && (!isRecord(plan) || !Array.isArray(plan.steps)))
    return invalid(WHERE, 'input.plan', 'must be a plan, null or undefined');

  const counters: GoalCounters = Object.freeze({
    turns: prev.counters.turns + 1,
    tokens: prev.counters.tokens + usage.value.tokens,
    costUsd: fromMicros(toMicros(prev.counters.costUsd) + toMicros(usage.value.costUsd)),
    elapsedMs: prev.counters.elapsedMs + usage.value.elapsedMs,
    checks: prev.counters.checks + (given.value === null ? 0 : 1),
  });
  if (!Number.isSafeInteger(counters.tokens) || !Number.isFinite(counters.elapsedMs))
    return invalid(WHERE, 'input.usage', 'would take the goal past the totals it can store');
  const verdict: GoalVerdictRecord | null =
    given.value === null
      ? prev.verdict
      : Object.freeze({
          verdict: given.value.verdict,
          // A judge's words: escaped, so no store refuses them and no line is forged.
          reason: clipText(escapeRefusedText(given.value.reason ?? ''), GOAL_TEXT_LIMIT),
          at: now,
        });
  const observed = observePlan(prev.guard, plan);
  const cap = capReached(prev, counters);

  let outcome: GoalOutcome;
  let decision: GoalDecision;
  const fresh = given.value;
  if (fresh?.verdict === 'achieved') {
    outcome = 'achieved';
    decision = {
      action: 'stop',
      status: 'achieved',
      reason: `The verifier accepted the goal${verdict?.reason ? `: ${clipText(verdict.reason, QUOTE)}` : '.'}`,
    };
  } else if (fresh?.verdict === 'unmet') {
    outcome = 'unmet';
    decision = {
      action: 'stop',
      status: 'unmet',
      reason: `The verifier says the goal cannot be met${verdict?.reason ? `: ${clipText(verdict.reason, QUOTE)}` : '.'}`,
    };
  } else if (cap !== null) {
    outcome = 'budget_limited';
    decision = { action: 'stop', status: 'budget_limited', reason: `Stopped: ${cap}.` };
  } else if (observed.tripped !== null) {
    outcome = 'blocked';
    decision = {
      action: 'ask',
      status: 'blocked',
      reason: `Only re-planning: ${observed.tripped}.`,
      question: `The agent keeps re-planning without finishing a step (${observed.tripped}). Should it go on with the plan as it is, change the goal, or stop?`,
    };
  } else {
    outcome = 'continue';
    decision = { action: 'continue', line: '' };
  }

  const stepped = transition(goalMachine, prev.machine, {
    outcome,
    now,
    tokens: usage.value.tokens,
    costUsd: usage.value.costUsd,
    reason: decision.action === 'continue' ? null : decision.reason,
  });
  if (!stepped.ok) return stepped;
  const status: GoalStatus = outcome === 'continue' ? 'active' : outcome;
  const next: Goal = Object.freeze({
    ...prev,
    status,
    counters,
    verdict,
    reason: decision.action === 'continue' ? null : decision.reason,
    question: decision.action === 'ask' ? decision.question : null,
    guard: observed.guard,
    machine: stepped.value,
    updatedAt: now,
  });
  if (decision.action === 'continue')
    decision = { action: 'continue', line: continueLine(next, verdict) };
  return {
    ok: true,
    value: Object.freeze({ goal: trustGoal(next), decision: Object.freeze(decision) }),
  };
}
