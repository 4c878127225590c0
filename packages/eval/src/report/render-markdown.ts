import type { EvalReport } from './build-report.ts';

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

/**
 * The report as markdown: the verdict first, then per-arm and per-pair tables and plan
 * behaviour. Byte-stable for a given report.
 *
 * @public
 */
export function renderMarkdown(report: EvalReport): string {
  const lines: string[] = [];
  lines.push(`# Eval report: ${report.name}`, '');
  lines.push('## Verdict', '');
  for (const line of report.verdict) lines.push(`- ${line}`);
  lines.push('');
  lines.push(
    `Run: ${report.outcome}; ${report.trials.finished} of ${report.trials.planned} trials finished (${report.trials.errored} errored, ${report.trials.cutShort} cut short); seed ${report.seed}, k = ${report.repetitions}; spent ${dollars(report.trials.usd)} and ${report.trials.tokens} tokens.`,
    '',
  );
  lines.push('## Arms', '');
  lines.push(
    '| Arm | Model | Planning | n | Success (95% Wilson CI) | Tokens mean / p50 / p90 | USD mean / p50 / p90 | Turns mean / p50 / p90 | Tool calls mean / p50 / p90 |',
    '| --- | --- | --- | ---: | --- | --- | --- | --- | --- |',
  );
  for (const arm of report.arms) {
    const rate = arm.successRate;
    lines.push(
      `| ${arm.label} | ${arm.model} (${arm.host}) | ${arm.planning} | ${arm.n} | ${arm.successes}/${arm.n} = ${percent(rate.estimate)} (${percent(rate.low)} to ${percent(rate.high)}) | ${num(arm.tokens.mean)} / ${num(arm.tokens.p50)} / ${num(arm.tokens.p90)} | ${dollars(arm.usd.mean)} / ${dollars(arm.usd.p50)} / ${dollars(arm.usd.p90)} | ${num(arm.turns.mean)} / ${num(arm.turns.p50)} / ${num(arm.turns.p90)} | ${num(arm.toolCalls.mean)} / ${num(arm.toolCalls.p50)} / ${num(arm.toolCalls.p90)} |`,
    );
  }
  lines.push('', '## Pairs', '');
  lines.push(
    `Fisher's exact test, two-sided; p-values adjusted for ${report.pairs.length} comparison${report.pairs.length === 1 ? '' : 's'} by Holm's method; significant when the adjusted p < ${report.level}.`,
    '',
  );
  if (report.pairs.length > 0) {
    lines.push(
      '| A | B | A - B (95% Newcombe CI) | p | Holm p | Significant | Cost per extra success |',
      '| --- | --- | --- | ---: | ---: | --- | --- |',
    );
    for (const pair of report.pairs) {
      const d = pair.difference;
      const cost =
        pair.costPerExtraSuccess === null
          ? 'n/a (equal rates)'
          : `${dollars(pair.costPerExtraSuccess.usd)} (${pair.costPerExtraSuccess.arm})`;
      lines.push(
        `| ${pair.a} | ${pair.b} | ${percent(d.estimate)} (${percent(d.low)} to ${percent(d.high)}) | ${pair.pValue.toFixed(4)} | ${pair.adjustedP.toFixed(4)} | ${pair.significant ? 'yes' : 'no'} | ${cost} |`,
      );
    }
  }
  lines.push('', '## Plan behaviour', '');
  lines.push(
    '| Arm | Steps created (mean) | Completed (mean) | Abandoned (mean) | Planning calls (mean) | Share of tool calls |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const arm of report.arms) {
    const plan = arm.plan;
    lines.push(
      `| ${arm.label} | ${num(plan.stepsCreated.mean)} | ${num(plan.stepsCompleted.mean)} | ${num(plan.stepsAbandoned.mean)} | ${num(plan.planningCalls.mean)} | ${percent(plan.planningShare)} |`,
    );
  }
  if (report.judgeVerdicts.length > 0) {
    lines.push('', '## Judge verdicts', '');
    lines.push('| Trial | Verdict | Reasoning |', '| --- | --- | --- |');
    const shown = report.judgeVerdicts.slice(0, JUDGE_ROWS);
    for (const row of shown) {
      const verdict = row.pass === null ? 'no verdict (errored)' : row.pass ? 'PASS' : 'FAIL';
      lines.push(`| ${row.key} | ${verdict} | ${cell(row.reason)} |`);
    }
    if (report.judgeVerdicts.length > shown.length)
      lines.push(
        '',
        `${report.judgeVerdicts.length - shown.length} more in the JSON report and the results log.`,
      );
  }
  lines.push('');
  return lines.join('\n');
}

const JUDGE_ROWS = 200;

/** A table cell: one line, pipes escaped, clipped. */
function cell(text: string): string {
  const line = text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
