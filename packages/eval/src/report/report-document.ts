import { clipText } from '@plankit/core/internal-unstable';
import { confidenceText, type EvalReport } from './build-report.ts';

/**
 * One block of a rendered report. Text is plain: each renderer escapes it for its own format,
 * so config text (labels, names, model ids) can never add a row, a cell or a verdict.
 */
export type ReportBlock =
  | { readonly kind: 'title'; readonly text: string }
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'verdict'; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | {
      readonly kind: 'table';
      readonly head: readonly string[];
      /** Per column: numbers are right-aligned. */
      readonly numeric: readonly boolean[];
      readonly rows: readonly (readonly string[])[];
    }
  | { readonly kind: 'charts' };

/** A rate as a percentage with one decimal. */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** USD with enough digits for small amounts. */
export function dollars(value: number): string {
  return `$${value < 0.01 ? value.toFixed(6) : value.toFixed(4)}`;
}

function num(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function spread(summary: { mean: number; p50: number; p90: number }, show = num): string {
  return `${show(summary.mean)} / ${show(summary.p50)} / ${show(summary.p90)}`;
}

/** How many judge verdicts the rendered report lists. */
const JUDGE_ROWS = 200;

/** Judge reasoning is clipped to this in a table cell. */
const REASON_CHARS = 300;

function clipped(text: string): string {
  return clipText(text.replace(/\s+/g, ' ').trim(), REASON_CHARS);
}

/**
 * The report as blocks, in reading order: verdict, run, arms (with the charts), pairs, plan
 * behaviour, goals (when an arm has one), judge verdicts, method. `renderMarkdown` and `renderHtml` both render these, so the
 * two outputs hold the same text.
 */
export function reportDocument(report: EvalReport): readonly ReportBlock[] {
  const blocks: ReportBlock[] = [];
  blocks.push({ kind: 'title', text: `Eval report: ${report.name}` });
  blocks.push({ kind: 'heading', text: 'Verdict' });
  for (const line of report.verdict) blocks.push({ kind: 'verdict', text: line });
  blocks.push({
    kind: 'paragraph',
    text: `Run: ${report.outcome}; ${report.trials.finished} of ${report.trials.planned} trials finished (${report.trials.errored} errored, ${report.trials.cutShort} cut short); seed ${report.seed}, k = ${report.repetitions}; spent ${dollars(report.trials.usd)} and ${report.trials.tokens} tokens.`,
  });
  blocks.push({ kind: 'heading', text: 'Arms' });
  blocks.push({ kind: 'charts' });
  blocks.push({
    kind: 'table',
    head: [
      'Arm',
      'Model',
      'Planning',
      'n',
      'Success (95% Wilson CI)',
      'USD per success',
      'Tokens mean / p50 / p90',
      'USD mean / p50 / p90',
      'Turns mean / p50 / p90',
      'Tool calls mean / p50 / p90',
    ],
    numeric: [false, false, false, true, false, true, false, false, false, false],
    rows: report.arms.map((arm) => {
      const rate = arm.successRate;
      return [
        arm.label,
        `${arm.model} (${arm.host})`,
        arm.planning,
        String(arm.n),
        `${arm.successes}/${arm.n} = ${percent(rate.estimate)} (${percent(rate.low)} to ${percent(rate.high)})`,
        arm.costPerSuccess === null ? 'n/a (no success)' : dollars(arm.costPerSuccess),
        spread(arm.tokens),
        spread(arm.usd, dollars),
        spread(arm.turns),
        spread(arm.toolCalls),
      ];
    }),
  });
  blocks.push({ kind: 'heading', text: 'Pairs' });
  const pairs = report.pairs.length;
  const confidence = confidenceText(1 - report.level / Math.max(1, pairs));
  blocks.push({
    kind: 'paragraph',
    text: `Each pair is B - A. Newcombe's interval (method 11) at ${confidence} confidence${pairs > 1 ? ` for ${pairs} comparisons (Bonferroni)` : ''}; significant exactly when the interval leaves out 0, which is when ${pairs > 1 ? 'the adjusted p' : 'p'} < ${report.level}. See Method.`,
  });
  if (pairs > 0)
    blocks.push({
      kind: 'table',
      head: [
        'A',
        'B',
        `B - A (${confidence} Newcombe CI)`,
        'p',
        'Adjusted p',
        'Significant',
        'Cost per extra success',
      ],
      numeric: [false, false, false, true, true, false, false],
      rows: report.pairs.map((pair) => {
        const d = pair.difference;
        return [
          pair.a,
          pair.b,
          `${signedPercent(d.estimate)} (${signedPercent(d.low)} to ${signedPercent(d.high)})`,
          pair.pValue.toFixed(4),
          pair.adjustedP.toFixed(4),
          pair.significant ? 'yes' : 'no',
          pair.costPerExtraSuccess === null
            ? 'n/a (equal rates)'
            : `${dollars(pair.costPerExtraSuccess.usd)} (${pair.costPerExtraSuccess.arm})`,
        ];
      }),
    });
  blocks.push({ kind: 'heading', text: 'Plan behaviour' });
  blocks.push({
    kind: 'table',
    head: [
      'Arm',
      'Steps created (mean)',
      'Completed (mean)',
      'Abandoned (mean)',
      'Planning calls (mean)',
      'Share of tool calls',
    ],
    numeric: [false, true, true, true, true, true],
    rows: report.arms.map((arm) => [
      arm.label,
      num(arm.plan.stepsCreated.mean),
      num(arm.plan.stepsCompleted.mean),
      num(arm.plan.stepsAbandoned.mean),
      num(arm.plan.planningCalls.mean),
      percent(arm.plan.planningShare),
    ]),
  });
  goalBlocks(report, blocks);
  if (report.judgeVerdicts.length > 0) {
    blocks.push({ kind: 'heading', text: 'Judge verdicts' });
    const shown = report.judgeVerdicts.slice(0, JUDGE_ROWS);
    blocks.push({
      kind: 'table',
      head: ['Trial', 'Verdict', 'Reasoning'],
      numeric: [false, false, false],
      rows: shown.map((row) => [
        row.key,
        row.pass === null ? 'no verdict (errored)' : row.pass ? 'PASS' : 'FAIL',
        clipped(row.reason),
      ]),
    });
    if (report.judgeVerdicts.length > shown.length)
      blocks.push({
        kind: 'paragraph',
        text: `${report.judgeVerdicts.length - shown.length} more in the JSON report and the results log.`,
      });
  }
  blocks.push({ kind: 'heading', text: 'Method' });
  for (const line of report.method) blocks.push({ kind: 'paragraph', text: line });
  return blocks;
}

/** The goal arms' outcomes, and each goal arm against each arm without a goal. */
function goalBlocks(report: EvalReport, blocks: ReportBlock[]): void {
  const arms = report.arms.filter((arm) => arm.goal !== undefined);
  if (arms.length === 0) return;
  blocks.push({ kind: 'heading', text: 'Goals' });
  blocks.push({
    kind: 'table',
    head: [
      'Arm',
      'Verifier',
      'n',
      'Achieved (95% Wilson CI)',
      'Unmet',
      'Blocked',
      'Budget limited',
      'Undecided',
      'Achieved, check failed',
      'Goal turns mean / p50 / p90',
      'Tokens mean / p50 / p90',
      'Model calls mean / p50 / p90',
    ],
    numeric: [false, false, true, false, true, true, true, true, true, false, false, false],
    rows: arms.map((arm) => {
      const goal = arm.goal as NonNullable<typeof arm.goal>;
      const rate = goal.achievedRate;
      return [
        arm.label,
        goal.verifier,
        String(arm.n),
        `${goal.outcomes.achieved}/${arm.n} = ${percent(rate.estimate)} (${percent(rate.low)} to ${percent(rate.high)})`,
        String(goal.outcomes.unmet),
        String(goal.outcomes.blocked),
        String(goal.outcomes.budgetLimited),
        String(goal.outcomes.undecided),
        String(goal.achievedButFailed),
        spread(goal.goalTurns),
        spread(arm.tokens),
        spread(arm.turns),
      ];
    }),
  });
  const comparisons = report.goals ?? [];
  if (comparisons.length === 0) return;
  blocks.push({
    kind: 'paragraph',
    text: "Each goal arm against each arm without a goal: the success difference is their pair's (same interval and rule, signed goal - no goal); the extra costs are means per finished trial. See Method.",
  });
  blocks.push({
    kind: 'table',
    head: [
      'Goal arm',
      'No-goal arm',
      'Success, goal - no goal (CI of the pair)',
      'Significant',
      'Extra tokens per trial',
      'Extra model calls per trial',
      'Extra USD per trial',
    ],
    numeric: [false, false, false, false, true, true, true],
    rows: comparisons.map((row) => [
      row.goal,
      row.baseline,
      row.difference === null
        ? 'not enough trials'
        : `${signedPercent(row.difference.estimate)} (${signedPercent(row.difference.low)} to ${signedPercent(row.difference.high)})`,
      row.difference === null ? 'n/a' : row.significant ? 'yes' : 'no',
      signedNumber(row.extraTokens),
      signedNumber(row.extraTurns),
      `${row.extraUsd < 0 ? '-' : '+'}${dollars(Math.abs(row.extraUsd))}`,
    ]),
  });
}

function signedNumber(value: number): string {
  return `${value >= 0 ? '+' : ''}${num(value)}`;
}

function signedPercent(value: number): string {
  return `${value > 0 ? '+' : ''}${percent(value)}`;
}
