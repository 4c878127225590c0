import type { EvalArm } from '../config/define-eval.ts';
import { goalOf } from '../runner/trial-goal.ts';
import type { TrialRecord } from '../runner/trial-record.ts';
import { describeSample, type SampleSummary } from '../stats/describe-sample.ts';
import { type ProportionInterval, wilsonInterval } from '../stats/wilson-interval.ts';

/** How a goal arm's goals ended, over its finished trials. @public */
export interface GoalOutcomeCounts {
  /** The verifier accepted the goal. */
  readonly achieved: number;
  /** The verifier said it cannot be met. */
  readonly unmet: number;
  /** The re-plan guard saw the agent only re-planning. */
  readonly blocked: number;
  /** A goal cap (tokens, USD, turns, wall time) was reached. */
  readonly budgetLimited: number;
  /** The trial ended before the goal did: its `maxTurns`, its own cap, or a host that does not continue. */
  readonly undecided: number;
}

/** A goal arm's goals in the report. @public */
export interface GoalSummary {
  /** The verifier: `check` (the task's own), `all_steps_done`, or `function` (the arm's own). */
  readonly verifier: 'check' | 'all_steps_done' | 'function';
  /** How the goals of the finished trials ended. */
  readonly outcomes: GoalOutcomeCounts;
  /** Goals achieved over finished trials, with its 95% Wilson interval. */
  readonly achievedRate: ProportionInterval;
  /**
   * Goals the verifier accepted in trials the task's check failed: a verifier other than the
   * check can claim more than was done, and this counts it.
   */
  readonly achievedButFailed: number;
  /** Goal turns (answers decided) per finished trial. */
  readonly goalTurns: SampleSummary;
}

/** A goal arm against an arm without a goal, from their pair. @public */
export interface GoalComparison {
  /** The goal arm's id. */
  readonly goal: string;
  /** The arm without a goal. */
  readonly baseline: string;
  /**
   * Success rate of the goal arm minus the baseline's, with the pair's interval (Newcombe's,
   * corrected for the report's pairs as every pair is); `null` when either arm has no finished
   * trial.
   */
  readonly difference: ProportionInterval | null;
  /** The pair's verdict rule: the interval leaves out 0. */
  readonly significant: boolean;
  /** The pair's p-value, corrected as in its row of the pairs. */
  readonly adjustedP: number;
  /** Mean tokens per finished trial, goal arm minus baseline. */
  readonly extraTokens: number;
  /** Mean model calls per finished trial, goal arm minus baseline. */
  readonly extraTurns: number;
  /** Mean USD per finished trial, goal arm minus baseline. */
  readonly extraUsd: number;
  /** The comparison in one plain sentence. */
  readonly verdict: string;
}

/** The arm's goal in the report, or `undefined` for an arm without a goal. */
export function summarizeGoal(
  arm: EvalArm,
  finished: readonly TrialRecord[],
): GoalSummary | undefined {
  const options = goalOf(arm);
  if (options === null) return undefined;
  const chosen = options.verifier ?? 'check';
  const count = (status: string): number =>
    finished.filter((trial) => (trial.goal?.status ?? 'active') === status).length;
  const achieved = count('achieved');
  return {
    verifier: typeof chosen === 'function' ? 'function' : chosen,
    outcomes: {
      achieved,
      unmet: count('unmet'),
      blocked: count('blocked'),
      budgetLimited: count('budget_limited'),
      undecided: count('active'),
    },
    achievedRate: wilsonInterval(achieved, finished.length),
    achievedButFailed: finished.filter((trial) => trial.goal?.status === 'achieved' && !trial.pass)
      .length,
    goalTurns: describeSample(finished.map((trial) => trial.goal?.turns ?? 0)),
  };
}

/** What {@link compareGoal} reads of an arm and of the pair of two arms. */
interface ArmFigures {
  readonly id: string;
  readonly n: number;
  readonly successes: number;
  readonly tokens: SampleSummary;
  readonly turns: SampleSummary;
  readonly usd: SampleSummary;
}
interface PairFigures {
  readonly a: string;
  readonly b: string;
  readonly difference: ProportionInterval;
  readonly confidence: number;
  readonly significant: boolean;
  readonly adjustedP: number;
}

function points(value: number): string {
  const pts = value * 100;
  return `${pts >= 0 ? '+' : ''}${pts.toFixed(1)}`;
}

function signed(value: number, digits = 0): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

/**
 * The goal arm against the baseline, read off their pair (so the interval and the verdict are
 * the pair's, signed goal - baseline), with the extra tokens, model calls and USD per trial.
 */
export function compareGoal(
  goal: ArmFigures,
  baseline: ArmFigures,
  pair: PairFigures,
  confidence: string,
): GoalComparison {
  const flip = pair.a === goal.id;
  const difference: ProportionInterval = flip
    ? {
        estimate: -pair.difference.estimate,
        low: -pair.difference.high,
        high: -pair.difference.low,
      }
    : pair.difference;
  const extraTokens = goal.tokens.mean - baseline.tokens.mean;
  const extraTurns = goal.turns.mean - baseline.turns.mean;
  const extraUsd = goal.usd.mean - baseline.usd.mean;
  const cost = `at ${signed(extraTokens)} tokens and ${signed(extraTurns, 1)} model calls per trial (mean)`;
  const head = `Goal arm ${goal.id} against ${baseline.id} (no goal)`;
  const enough = goal.n > 0 && baseline.n > 0;
  const gap = `${goal.id} - ${baseline.id} = ${points(difference.estimate)} points (${confidence} CI ${points(difference.low)} to ${points(difference.high)})`;
  const verdict = !enough
    ? `${head}: not enough trials to compare (n = ${goal.n} vs ${baseline.n} finished); run more before reading anything into it.`
    : pair.significant
      ? `${head}: the goal arm succeeds ${difference.estimate > 0 ? 'more' : 'less'} often, ${gap}, ${cost}.`
      : `${head}: no significant difference in success at n = ${goal.n} vs ${baseline.n}, ${gap}, ${cost}; the data cannot tell them apart, which is not evidence that the goal does nothing.`;
  return {
    goal: goal.id,
    baseline: baseline.id,
    difference: enough ? difference : null,
    significant: enough && pair.significant,
    adjustedP: pair.adjustedP,
    extraTokens,
    extraTurns,
    extraUsd,
    verdict,
  };
}

/** The method lines a report with a goal arm adds. */
export const GOAL_METHOD: readonly string[] = Object.freeze([
  "A goal arm's trial counts like any other: the task's check decides its pass, whatever its goal's outcome. The goal's outcomes are counted over the finished trials (undecided: the trial ended before the goal, on maxTurns or its own cap), with the achieved rate's 95% Wilson interval; a goal achieved in a trial the check failed is counted apart, as a verifier's false claim.",
  'Each goal arm is compared with each arm without a goal through their pair above: the same interval, correction and rule, signed goal - baseline, with the extra tokens, model calls and USD per finished trial (means). Either arm with no finished trial: not enough trials to compare.',
]);
