import { describe, expect, it } from 'vitest';
import { finishedTrial } from '../testing/finished-trial.ts';
import { buildReport } from './build-report.ts';
import { renderHtml } from './render-html.ts';
import { renderMarkdown } from './render-markdown.ts';

const host = {
  kind: 'custom',
  modelId: 'm',
  runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
};

describe('buildReport', () => {
  it('with one arm, the method states no pair and prints no infinite or NaN confidence', () => {
    const report = buildReport(
      {
        arms: [{ id: 'only', host, planning: false }],
        tasks: [{ id: 't', prompt: 'p', check: () => true }],
        repetitions: 3,
        seed: 1,
      },
      [finishedTrial('only', 1, true), finishedTrial('only', 2, false)],
      'completed',
    );
    expect(report.pairs).toEqual([]);
    expect(report.method.join('\n')).toContain('One arm: no pair is compared');
    for (const text of [report.method.join('\n'), renderMarkdown(report), renderHtml(report)])
      expect(text).not.toMatch(/NaN|Infinity/);
  });

  it('names the text mode in the planning description of unicode arms only', () => {
    const report = buildReport(
      {
        arms: [
          { id: 'ascii', host, planning: { text: 'ascii' } },
          { id: 'unicode', host, planning: { strategy: 'plan_act_reflect', text: 'unicode' } },
          { id: 'none', host, planning: false },
        ],
        tasks: [{ id: 't', prompt: 'p', check: () => true }],
        repetitions: 1,
        seed: 1,
      },
      [finishedTrial('ascii', 1, true), finishedTrial('unicode', 1, true)],
      'completed',
    );
    expect(report.arms.map((arm) => arm.planning)).toEqual([
      'react, reminder on_change, inProgress single',
      'plan_act_reflect, reminder on_change, inProgress single, text unicode',
      'none',
    ]);
  });
});
