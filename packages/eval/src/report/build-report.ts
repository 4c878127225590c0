import type { EvalConfig } from '../config/define-eval.ts';
import type { RunOutcome } from '../runner/run-outcome.ts';
import type { TrialRecord } from '../runner/trial-record.ts';
import { describeSample, type SampleSummary } from '../stats/describe-sample.ts';
import { differenceInterval } from '../stats/difference-interval.ts';
import { fisherExactTest } from '../stats/fisher-exact-test.ts';
import { type ProportionInterval, wilsonInterval } from '../stats/wilson-interval.ts';

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
  /** How it plans, in words (`none`, `react, reminder on_change, inProgress single`). */
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
}

/** Two arms compared. @public */
export interface PairComparison {
  /** The first arm's id (earlier in the config). */
  readonly a: string;
  /** The second arm's id. */
  readonly b: string;
  /** Success rate of a minus b, with Newcombe's 95% interval. */
  readonly difference: ProportionInterval;
  /** Fisher's exact test, two-sided. */
  readonly pValue: number;
  /** The p-value adjusted by Holm's method over all pairs. */
  readonly adjustedP: number;
  /** Whether `adjustedP` is below {@link SIGNIFICANCE_LEVEL}. */
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
  /** The format version, 1. */
  readonly version: 1;
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
  /** How the pairs' p-values are corrected for multiple comparisons. */
  readonly multipleComparisons: 'holm';
  /** Per arm, in config order. */
  readonly arms: readonly ArmSummary[];
  /** Per pair of arms, in config order. */
  readonly pairs: readonly PairComparison[];
  /** The plain verdict, one line per pair (plus a line when the run stopped early). */
  readonly verdict: readonly string[];
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
 * among the pairs at the level, whatever their dependence.
 *
 * @public
 */
export function holmAdjust(pValues: readonly number[]): number[] {
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
  return `${planning.strategy ?? 'react'}, reminder ${planning.reminder ?? 'on_change'}, inProgress ${planning.inProgress ?? 'single'}`;
}

function points(value: number): string {
  const pts = value * 100;
  return `${pts >= 0 ? '+' : ''}${pts.toFixed(1)}`;
}

function pText(p: number): string {
  return p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`;
}

/**
 * Builds the report from the logged trials: per-arm rates with Wilson intervals and sample
 * summaries, per-pair differences with Newcombe intervals, Fisher's exact p-values with Holm's
 * correction, cost per extra success, and a verdict that never claims more than the test shows.
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
    };
  });
  const raw: { a: ArmSummary; b: ArmSummary; p: number }[] = [];
  for (let i = 0; i < arms.length; i++)
    for (let j = i + 1; j < arms.length; j++) {
      const a = arms[i] as ArmSummary;
      const b = arms[j] as ArmSummary;
      const p = fisherExactTest(
        { successes: a.successes, trials: a.n },
        { successes: b.successes, trials: b.n },
      );
      raw.push({ a, b, p });
    }
  const adjusted = holmAdjust(raw.map((pair) => pair.p));
  const pairs: PairComparison[] = raw.map(({ a, b, p }, index) => {
    const adjustedP = adjusted[index] ?? 1;
    const difference = differenceInterval(
      { successes: a.successes, trials: a.n },
      { successes: b.successes, trials: b.n },
    );
    const significant = adjustedP < SIGNIFICANCE_LEVEL && a.n > 0 && b.n > 0;
    const rateGap = a.successRate.estimate - b.successRate.estimate;
    const costPerExtraSuccess =
      rateGap === 0
        ? null
        : rateGap > 0
          ? { arm: a.id, usd: (a.usd.mean - b.usd.mean) / rateGap }
          : { arm: b.id, usd: (b.usd.mean - a.usd.mean) / -rateGap };
    const interval = `95% CI ${points(difference.low)} to ${points(difference.high)} points`;
    const pShown = raw.length > 1 ? `Holm-adjusted p ${pText(adjustedP)}` : `p ${pText(p)}`;
    const verdict = significant
      ? `${rateGap > 0 ? a.id : b.id} succeeds more often than ${rateGap > 0 ? b.id : a.id}: ${points(Math.abs(rateGap))} points (${interval} for ${a.id} - ${b.id}), ${pShown}, n = ${a.n} vs ${b.n}.`
      : `No significant difference between ${a.id} and ${b.id} at n = ${a.n} vs ${b.n} (${a.id} - ${b.id} = ${points(difference.estimate)} points, ${interval}, ${pShown}); the data cannot tell them apart, which is not evidence that they are equal.`;
    return {
      a: a.id,
      b: b.id,
      difference,
      pValue: p,
      adjustedP,
      significant,
      costPerExtraSuccess,
      verdict,
    };
  });
  const verdict = pairs.map((pair) => pair.verdict);
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
    version: 1,
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
    multipleComparisons: 'holm',
    arms,
    pairs,
    verdict,
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
