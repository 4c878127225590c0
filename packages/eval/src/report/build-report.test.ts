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
});
