import { describe, expect, it } from 'vitest';
import type { EvalConfig } from '../config/define-eval.ts';
import type { TrialGoalStatus } from '../runner/trial-goal.ts';
import type { TrialRecord } from '../runner/trial-record.ts';
import { finishedTrial } from '../testing/finished-trial.ts';
import { buildReport } from './build-report.ts';
import { renderHtml } from './render-html.ts';
import { renderMarkdown } from './render-markdown.ts';

const host = {
  kind: 'custom',
  modelId: 'm',
  runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
};

function config(goalFirst = false): EvalConfig {
  const none = { id: 'none', host, planning: false } as const;
  const goal = {
    id: 'goal',
    label: 'with a goal',
    host,
    planning: false,
    goal: { budget: { turns: 5 } },
  } as const;
  return {
    name: 'goal vs none',
    arms: goalFirst ? [goal, none] : [none, goal],
    tasks: [{ id: 't', prompt: 'p', check: () => true }],
    repetitions: 20,
    seed: 1,
  };
}

function goalTrial(repetition: number, pass: boolean, status: TrialGoalStatus, turns: number) {
  const trial: TrialRecord = {
    ...finishedTrial('goal', repetition, pass, {
      tokens: 1000 * turns,
      inputTokens: 900 * turns,
      outputTokens: 100 * turns,
      usd: 0.001 * turns,
    }),
    turns: 2 * turns,
    goal: {
      status,
      reason: status === 'active' ? null : `Stopped as ${status}.`,
      turns,
      checks: turns,
    },
  };
  return trial;
}

// 20 trials an arm: the no-goal arm passes 8; the goal arm passes 16 (15 achieved, one passed
// as the check said yet its verifier had not), and one goal achieved by a check that failed.
function trials(): TrialRecord[] {
  const out: TrialRecord[] = [];
  for (let r = 1; r <= 20; r++)
    out.push({ ...finishedTrial('none', r, r <= 8, { tokens: 1000, usd: 0.001 }), turns: 2 });
  const statuses: [boolean, TrialGoalStatus, number][] = [
    ...Array.from({ length: 15 }, (_, i): [boolean, TrialGoalStatus, number] => [
      true,
      'achieved',
      1 + (i % 3),
    ]),
    [true, 'active', 4],
    [false, 'achieved', 1],
    [false, 'unmet', 2],
    [false, 'blocked', 5],
    [false, 'budget_limited', 5],
  ];
  statuses.forEach(([pass, status, turns], i) => {
    out.push(goalTrial(i + 1, pass, status, turns));
  });
  return out;
}

describe('the report of a goal arm against one without', () => {
  it('counts the goal outcomes and compares the arms through their pair', () => {
    const report = buildReport(config(), trials(), 'completed');
    const goal = report.arms[1]?.goal;
    expect(report.arms[0]?.goal).toBeUndefined();
    expect(goal?.verifier).toBe('check');
    expect(goal?.outcomes).toEqual({
      achieved: 16,
      unmet: 1,
      blocked: 1,
      budgetLimited: 1,
      undecided: 1,
    });
    expect(goal?.achievedButFailed).toBe(1);
    expect(goal?.achievedRate.estimate).toBeCloseTo(16 / 20);
    const [comparison] = report.goals ?? [];
    const pair = report.pairs[0];
    expect(comparison?.difference).toEqual(pair?.difference);
    expect(comparison?.significant).toBe(pair?.significant);
    // 47 goal turns over 20 trials at 1000 tokens each, against 1000 tokens a trial.
    expect(comparison?.extraTokens).toBeCloseTo(2350 - 1000);
    expect(report.verdict).toHaveLength(2);
    expect(report.verdict[1]).toBe(comparison?.verdict);
  });

  it('signs the comparison goal - no goal when the goal arm is listed first', () => {
    const first = buildReport(config(true), trials(), 'completed');
    const second = buildReport(config(false), trials(), 'completed');
    const a = first.goals?.[0];
    const b = second.goals?.[0];
    expect(first.pairs[0]?.difference.estimate).toBeCloseTo(-0.4);
    expect(a?.difference?.estimate).toBeCloseTo(0.4);
    expect(a?.difference?.low).toBeCloseTo(b?.difference?.low ?? Number.NaN);
    expect(a?.difference?.high).toBeCloseTo(b?.difference?.high ?? Number.NaN);
    expect(a?.verdict).toBe(b?.verdict);
  });

  it('says not enough trials when an arm has none finished', () => {
    const report = buildReport(
      config(),
      trials().filter((trial) => trial.armId === 'goal'),
      'completed',
    );
    const [comparison] = report.goals ?? [];
    expect(comparison?.difference).toBeNull();
    expect(comparison?.significant).toBe(false);
    expect(comparison?.verdict).toBe(
      'Goal arm goal against none (no goal): not enough trials to compare (n = 20 vs 0 finished); run more before reading anything into it.',
    );
    expect(renderMarkdown(report)).toContain('| goal | none | not enough trials | n/a |');
  });

  it('leaves a report without a goal arm as it was', () => {
    const report = buildReport(
      { ...config(), arms: [config().arms[0] as EvalConfig['arms'][number]] },
      trials().filter((trial) => trial.armId === 'none'),
      'completed',
    );
    expect(report).not.toHaveProperty('goals');
    expect(report.arms[0]).not.toHaveProperty('goal');
    expect(renderMarkdown(report)).not.toContain('## Goals');
  });

  it('renders the same goal section in markdown and HTML', async () => {
    const report = buildReport(config(), trials(), 'completed');
    const markdown = renderMarkdown(report);
    const section = markdown.slice(markdown.indexOf('## Goals'), markdown.indexOf('## Method'));
    await expect(section).toMatchFileSnapshot('./__snapshots__/goal-section.md');
    const verdict = markdown.slice(0, markdown.indexOf('## Arms'));
    await expect(verdict).toMatchFileSnapshot('./__snapshots__/goal-verdict.md');
    const html = renderHtml(report);
    expect(html).toContain('Goals</h2>');
    expect(html).toContain('Achieved, check failed');
    for (const text of [markdown, html]) expect(text).not.toMatch(/NaN|Infinity|undefined/);
  });
});
