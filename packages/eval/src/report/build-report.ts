import type { EvalConfig } from '../config/define-eval.ts';
import type { RunOutcome } from '../runner/run-outcome.ts';
import type { TrialRecord } from '../runner/trial-record.ts';
import { compareRates } from '../stats/compare-rates.ts';
import { describeSample, type SampleSummary } from '../stats/describe-sample.ts';
import { type ProportionInterval, wilsonInterval } from '../stats/wilson-interval.ts';
import {
  compareGoal,
  GOAL_METHOD,
  type GoalComparison,
  type GoalSummary,
  summarizeGoal,
} from './goal-summary.ts';

/** The significance level of the report's tests. @public */
export const SIGNIFICANCE_LEVEL = 0.05;

/** One arm's results. @public */
export interface ArmSummary {
  /** The arm's id. */
  readonly id: string;
  /** Its label. */
  readonly label: string;
  /** The model id. */
  readonly model: string;
  /** The host kind. */
  readonly host: string;
  /** How it plans, in words (`none`, `react, reminder on_change, inProgress single`, and `, text unicode` for a unicode-mode arm). */
  readonly planning: string;
  /** Finished trials (the statistics' n). */
  readonly n: number;
  /** Of those, how many passed. */
  readonly successes: number;
  /** Trials that errored (not in n). */
  readonly errored: number;
  /** Trials cut short by the run's cap or an abort (not in n). */
  readonly cutShort: number;
  /** Success rate with its 95% Wilson interval. */
  readonly successRate: ProportionInterval;
  /** USD spent by the finished trials over their successes; null without a success. */
  readonly costPerSuccess: number | null;
  /** Tokens per trial. */
  readonly tokens: SampleSummary;
  /** USD per trial. */
  readonly usd: SampleSummary;
  /** Model calls per trial. */
  readonly turns: SampleSummary;
  /** Tool calls per trial. */
  readonly toolCalls: SampleSummary;
  /** Plan behaviour per trial. */
  readonly plan: {
    /** Steps created. */
    readonly stepsCreated: SampleSummary;
    /** Steps done at the end. */
    readonly stepsCompleted: SampleSummary;
    /** Steps created and not done at the end. */
    readonly stepsAbandoned: SampleSummary;
    /** Tool calls to the planning tools. */
    readonly planningCalls: SampleSummary;
    /** Planning calls as a share of all tool calls, over the arm (0 without calls). */
    readonly planningShare: number;
  };
  /** A goal arm's goals: how they ended and their goal turns; absent for an arm without a goal. */
  readonly goal?: GoalSummary | undefined;
}

/** Two arms compared. @public */
export interface PairComparison {
  /** Arm A's id: the arm listed first in the config. */
  readonly a: string;
  /** Arm B's id: the arm listed later. */
  readonly b: string;
  /**
   * Success rate of B minus A (every difference in the report is signed B - A), with Newcombe's
   * interval (method 11) at {@link PairComparison.confidence}.
   */
  readonly difference: ProportionInterval;
  /** The interval's confidence: `1 - level / pairs` (0.95 with two arms). */
  readonly confidence: number;
  /** The p-value of the same interval: the level at which it starts to leave out zero. */
  readonly pValue: number;
  /** `pValue` times the number of pairs, at most 1 (Bonferroni). */
  readonly adjustedP: number;
  /** The interval leaves out zero; always the same as `adjustedP < level`. */
  readonly significant: boolean;
  /**
   * Extra USD per extra success of the arm with the higher rate over the other: the difference
   * in mean USD per trial over the difference in success rate. Negative: the better arm is also
   * cheaper. Null when the rates are equal.
   */
  readonly costPerExtraSuccess: { readonly arm: string; readonly usd: number } | null;
  /** The plain verdict for this pair. */
  readonly verdict: string;
}
/** The report of a run: what `report.json` holds. @public */
export interface EvalReport {
  /** Always `plankit.eval-report`. */
  readonly format: 'plankit.eval-report';
  /** The format version: 2 since pairs are signed B - A and decided by one interval. */
  readonly version: 2;
  /** The eval's name. */
  readonly name: string;
  /** How the run ended. */
  readonly outcome: RunOutcome;
  /** The run seed. */
  readonly seed: number;
  /** k. */
  readonly repetitions: number;
  /** Trials: planned, finished, errored, cut short; USD and tokens spent in all. */
  readonly trials: {
    /** tasks × arms × k. */
    readonly planned: number;
    /** Finished (in the statistics). */
    readonly finished: number;
    /** Errored. */
    readonly errored: number;
    /** Cut short. */
    readonly cutShort: number;
    /** USD spent by every logged trial. */
    readonly usd: number;
    /** Tokens used by every logged trial. */
    readonly tokens: number;
  };
  /** The tests' level. */
  readonly level: number;
  /** How the pairs' intervals and p-values are corrected for multiple comparisons. */
  readonly multipleComparisons: 'bonferroni';
  /** Per arm, in config order. */
  readonly arms: readonly ArmSummary[];
  /** Per pair of arms, in config order. */
  readonly pairs: readonly PairComparison[];
  /**
   * Each goal arm against each arm without a goal; absent when no arm has a goal.
   */
  readonly goals?: readonly GoalComparison[] | undefined;
  /**
   * The plain verdict, one line per pair, then one per goal comparison (plus a line when the
   * run stopped early).
   */
  readonly verdict: readonly string[];
  /** How the figures were made: the decision rule and which trials count, one rule a line. */
  readonly method: readonly string[];
  /**
   * Every LLM judge verdict, in log order: the trial, PASS or FAIL (`null` when the reply held
   * no verdict and the trial errored), and the judge's reasoning (first 500 characters; the
   * results log keeps up to 4,000).
   */
  readonly judgeVerdicts: readonly JudgeVerdictRow[];
}

/** One LLM judge verdict in the report. @public */
export interface JudgeVerdictRow {
  /** `task/arm/repetition`. */
  readonly key: string;
  /** The judge's verdict; `null` when its reply held none. */
  readonly pass: boolean | null;
  /** The judge's reasoning, clipped. */
  readonly reason: string;
}

/**
 * Holm's step-down adjustment: the i-th smallest of m p-values becomes
 * `max over j <= i of min(1, (m - j + 1) * p_(j))`. Controls the chance of any false positive
 * among the pairs at the level, whatever their dependence. The report does not use it (Holm's
 * decisions have no matching intervals, so it corrects by Bonferroni); it is here for your own
 * p-values.
 *
 * @throws RangeError for a p-value that is not a number from 0 to 1
 * @public
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  if (!pValues.every((p) => p >= 0 && p <= 1))
    throw new RangeError('pValues must be numbers from 0 to 1');
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

function planningText(planning: EvalConfig['arms'][number]['planning']): string {
  if (planning === false) return 'none';
  // The text mode is named only when it is not the reference's, so ascii arms read as before.
  const text = planning.text === 'unicode' ? ', text unicode' : '';
  return `${planning.strategy ?? 'react'}, reminder ${planning.reminder ?? 'on_change'}, inProgress ${planning.inProgress ?? 'single'}${text}`;
}

function goalPart(
  arm: EvalConfig['arms'][number],
  finished: readonly TrialRecord[],
): { goal?: GoalSummary } {
  const goal = summarizeGoal(arm, finished);
  return goal === undefined ? {} : { goal };
}

/** Every goal arm against every arm without one, or undefined when no arm has a goal. */
function goalComparisons(
  arms: readonly ArmSummary[],
  pairs: readonly PairComparison[],
  comparisons: number,
): GoalComparison[] | undefined {
  if (!arms.some((arm) => arm.goal !== undefined)) return undefined;
  const out: GoalComparison[] = [];
  const confidence = confidenceText(1 - SIGNIFICANCE_LEVEL / Math.max(1, comparisons));
  for (const goal of arms) {
    if (goal.goal === undefined) continue;
    for (const baseline of arms) {
      if (baseline.goal !== undefined) continue;
      const pair = pairs.find(
        (p) => (p.a === goal.id && p.b === baseline.id) || (p.a === baseline.id && p.b === goal.id),
      );
      if (pair !== undefined) out.push(compareGoal(goal, baseline, pair, confidence));
    }
  }
  return out;
}

function points(value: number): string {
  const pts = value * 100;
  return `${pts >= 0 ? '+' : ''}${pts.toFixed(1)}`;
}

function pText(p: number): string {
  return p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`;
}

/** A confidence as a percentage: 95%, 98.33%. */
export function confidenceText(confidence: number): string {
  return `${Number((confidence * 100).toFixed(2))}%`;
}

function comparePair(a: ArmSummary, b: ArmSummary, comparisons: number): PairComparison {
  const decided = compareRates(
    { successes: a.successes, trials: a.n },
    { successes: b.successes, trials: b.n },
    { level: SIGNIFICANCE_LEVEL, comparisons },
  );
  const { difference, significant } = decided;
  const gap = difference.estimate;
  const costPerExtraSuccess =
    gap === 0
      ? null
      : gap > 0
        ? { arm: b.id, usd: (b.usd.mean - a.usd.mean) / gap }
        : { arm: a.id, usd: (a.usd.mean - b.usd.mean) / -gap };
  const signed = `${b.id} - ${a.id} = ${points(gap)} points (${confidenceText(decided.confidence)} CI ${points(difference.low)} to ${points(difference.high)})`;
  const pShown =
    comparisons > 1
      ? `Bonferroni-adjusted p ${pText(decided.adjustedP)}`
      : `p ${pText(decided.pValue)}`;
  const verdict = significant
    ? `${b.id} succeeds ${gap > 0 ? 'more' : 'less'} often than ${a.id}: ${signed}, ${pShown}, n = ${a.n} vs ${b.n}.`
    : `No significant difference between ${a.id} and ${b.id} at n = ${a.n} vs ${b.n}: ${signed}, ${pShown}; the data cannot tell them apart, which is not evidence that they are equal.`;
  return {
    a: a.id,
    b: b.id,
    difference,
    confidence: decided.confidence,
    pValue: decided.pValue,
    adjustedP: decided.adjustedP,
    significant,
    costPerExtraSuccess,
    verdict,
  };
}

function methodLines(comparisons: number): string[] {
  return [
    "A trial counts in its arm's n when it finished: the model stopped, ran out of turns (maxTurns), or was stopped by its own cap (perTrialUsd or perTrialTokens). Each of these is checked as it stands and passes only if the checker passes what it did, so an arm that cannot finish within its cap fails.",
    "Errored trials (the host or the checker threw, or the judge gave no verdict) and trials cut short by the run's total cap or an interruption are not in n; they are counted apart, and their spend is in the totals.",
    'Success rates carry 95% Wilson score intervals.',
    // One arm has no pair: a confidence of 1 - level / 0 would print as -Infinity%.
    ...(comparisons === 0 ? ['One arm: no pair is compared.'] : pairLines(comparisons)),
    "Cost per extra success is the difference in mean USD per trial over the difference in success rate, for the arm with the higher rate; cost per success is the USD of an arm's finished trials over their successes.",
  ];
}

function pairLines(comparisons: number): string[] {
  const confidence = confidenceText(1 - SIGNIFICANCE_LEVEL / comparisons);
  return [
    `Every pair is compared as B - A, where A is the arm listed first in the config. The difference has Newcombe's hybrid score interval with continuity correction (method 11) at ${confidence} confidence${comparisons > 1 ? `: 1 - ${SIGNIFICANCE_LEVEL} / ${comparisons} for ${comparisons} comparisons (Bonferroni)` : ' (one comparison, so no correction)'}.`,
    `One rule decides a pair: it is significant exactly when that interval leaves out 0. Its p-value is the level at which the same interval starts to leave out 0${comparisons > 1 ? `, times ${comparisons}` : ''}, so p < ${SIGNIFICANCE_LEVEL} and a significant verdict always go together.`,
  ];
}

/**
 * Builds the report from the logged trials: per-arm rates with Wilson intervals and sample
 * summaries; per pair, the difference B - A with its interval, p-value and verdict from one rule
 * ({@link compareRates}: Newcombe's interval, Bonferroni over the pairs), so the verdict never
 * disagrees with the interval shown beside it; cost per extra success; and the method section.
 *
 * @public
 */
export function buildReport(
  config: EvalConfig,
  trials: readonly TrialRecord[],
  outcome: RunOutcome,
): EvalReport {
  const arms: ArmSummary[] = config.arms.map((arm) => {
    const own = trials.filter((trial) => trial.armId === arm.id);
    const finished = own.filter((trial) => trial.status === 'finished');
    const successes = finished.filter((trial) => trial.pass).length;
    const calls = finished.reduce((sum, trial) => sum + trial.toolCalls, 0);
    const planningCalls = finished.reduce((sum, trial) => sum + trial.planningCalls, 0);
    const of = (pick: (trial: TrialRecord) => number): SampleSummary =>
      describeSample(finished.map(pick));
    return {
      id: arm.id,
      label: arm.label ?? arm.id,
      model: arm.host.modelId,
      host: arm.host.kind,
      planning: planningText(arm.planning),
      n: finished.length,
      successes,
      errored: own.filter((trial) => trial.status === 'errored').length,
      cutShort: own.filter((trial) => trial.status === 'cut_short').length,
      successRate: wilsonInterval(successes, finished.length),
      costPerSuccess:
        successes === 0 ? null : finished.reduce((sum, trial) => sum + trial.usd, 0) / successes,
      tokens: of((trial) => trial.tokens),
      usd: of((trial) => trial.usd),
      turns: of((trial) => trial.turns),
      toolCalls: of((trial) => trial.toolCalls),
      plan: {
        stepsCreated: of((trial) => trial.plan.created),
        stepsCompleted: of((trial) => trial.plan.completed),
        stepsAbandoned: of((trial) => trial.plan.abandoned),
        planningCalls: of((trial) => trial.planningCalls),
        planningShare: calls === 0 ? 0 : planningCalls / calls,
      },
      ...goalPart(arm, finished),
    };
  });
  const comparisons = (arms.length * (arms.length - 1)) / 2;
  const pairs: PairComparison[] = [];
  for (let i = 0; i < arms.length; i++)
    for (let j = i + 1; j < arms.length; j++)
      pairs.push(comparePair(arms[i] as ArmSummary, arms[j] as ArmSummary, comparisons));
  const verdict = pairs.map((pair) => pair.verdict);
  const goals = goalComparisons(arms, pairs, comparisons);
  if (goals !== undefined) verdict.push(...goals.map((goal) => goal.verdict));
  if (arms.length === 1)
    verdict.push(
      `One arm only: ${arms[0]?.id} succeeded ${arms[0]?.successes} of ${arms[0]?.n}; nothing to compare.`,
    );
  const planned = config.tasks.length * config.arms.length * config.repetitions;
  const finishedCount = trials.filter((trial) => trial.status === 'finished').length;
  if (outcome !== 'completed')
    verdict.push(
      `The run stopped early (${outcome === 'run_budget' ? 'the total budget was reached' : 'it was interrupted'}): ${finishedCount} of ${planned} trials finished; the figures cover those only.`,
    );
  return {
    format: 'plankit.eval-report',
    version: 2,
    name: config.name ?? 'eval',
    outcome,
    seed: config.seed,
    repetitions: config.repetitions,
    trials: {
      planned,
      finished: finishedCount,
      errored: trials.filter((trial) => trial.status === 'errored').length,
      cutShort: trials.filter((trial) => trial.status === 'cut_short').length,
      usd: Math.round(trials.reduce((sum, trial) => sum + trial.usd, 0) * 1e6) / 1e6,
      tokens: trials.reduce((sum, trial) => sum + trial.tokens, 0),
    },
    level: SIGNIFICANCE_LEVEL,
    multipleComparisons: 'bonferroni',
    arms,
    pairs,
    ...(goals === undefined ? {} : { goals }),
    verdict,
    method:
      goals === undefined
        ? methodLines(comparisons)
        : [...methodLines(comparisons), ...GOAL_METHOD],
    judgeVerdicts: trials.flatMap((trial) =>
      trial.verdict?.by === 'llm_judge' && trial.status !== 'cut_short'
        ? [
            {
              key: trial.key,
              pass: trial.status === 'finished' ? trial.verdict.pass : null,
              reason: trial.verdict.reason.slice(0, 500),
            },
          ]
        : [],
    ),
  };
}
