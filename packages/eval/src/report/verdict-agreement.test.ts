import { describe, expect, it } from 'vitest';
import type { EvalConfig } from '../config/define-eval.ts';
import { seededRandom } from '../runner/seeded-random.ts';
import type { TrialRecord } from '../runner/trial-record.ts';
import { finishedTrial } from '../testing/finished-trial.ts';
import { buildReport, SIGNIFICANCE_LEVEL } from './build-report.ts';
import { markdownText, renderMarkdown } from './render-markdown.ts';

const host = {
  kind: 'test',
  modelId: 'm',
  runTrial: async () => ({ text: '', stop: 'done' as const, turns: 0 }),
};

const trial = finishedTrial;

/** `+30.0 points (95% CI +0.5 to +53.4)` in a verdict, as numbers. */
function shown(
  verdict: string,
  a: string,
  b: string,
): { estimate: number; low: number; high: number } {
  const match = new RegExp(
    `${b} - ${a} = ([+-]?\\d+\\.\\d) points \\([\\d.]+% CI ([+-]?\\d+\\.\\d) to ([+-]?\\d+\\.\\d)\\)`,
  ).exec(verdict);
  if (match === null) throw new Error(`no signed difference in: ${verdict}`);
  return { estimate: Number(match[1]), low: Number(match[2]), high: Number(match[3]) };
}

describe('every verdict agrees with the interval and p-value beside it', () => {
  it('over 3,000 simulated runs of 2 to 4 arms', () => {
    const random = seededRandom(424242);
    let significant = 0;
    let notSignificant = 0;
    for (let run = 0; run < 3000; run++) {
      const armCount = 2 + Math.floor(random() * 3);
      const ids = ['none', 'react', 'par', 'gdrs'].slice(0, armCount);
      const trials: TrialRecord[] = [];
      for (const id of ids) {
        const n = Math.floor(random() * 61);
        const rate = random();
        for (let r = 1; r <= n; r++) trials.push(trial(id, r, random() < rate));
      }
      const config: EvalConfig = {
        arms: ids.map((id) => ({ id, host, planning: false })),
        tasks: [{ id: 't', prompt: 'p', check: () => true }],
        repetitions: 60,
        seed: run,
      };
      const report = buildReport(config, trials, 'completed');
      const markdown = renderMarkdown(report);
      for (const pair of report.pairs) {
        const d = pair.difference;
        const excludesZero = d.low > 0 || d.high < 0;
        expect(pair.significant).toBe(excludesZero);
        expect(pair.adjustedP < SIGNIFICANCE_LEVEL).toBe(excludesZero);
        expect(d.low).toBeLessThanOrEqual(d.estimate);
        expect(d.high).toBeGreaterThanOrEqual(d.estimate);
        // The text: one sign convention (B - A) for the headline and the interval, and a
        // "no significant difference" only beside an interval that holds 0.
        const text = shown(pair.verdict, pair.a, pair.b);
        expect(Math.abs(text.estimate - d.estimate * 100)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(Math.abs(text.low - d.low * 100)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(Math.abs(text.high - d.high * 100)).toBeLessThanOrEqual(0.05 + 1e-9);
        if (pair.verdict.startsWith('No significant difference')) {
          notSignificant++;
          expect(excludesZero).toBe(false);
          expect(text.low).toBeLessThanOrEqual(0);
          expect(text.high).toBeGreaterThanOrEqual(0);
        } else {
          significant++;
          expect(excludesZero).toBe(true);
          const more = pair.verdict.startsWith(`${pair.b} succeeds more often than ${pair.a}:`);
          const less = pair.verdict.startsWith(`${pair.b} succeeds less often than ${pair.a}:`);
          expect(more || less).toBe(true);
          expect(more ? d.low > 0 && text.low >= 0 : d.high < 0 && text.high <= 0).toBe(true);
        }
        expect(markdown).toContain(`- ${markdownText(pair.verdict)}\n`);
      }
    }
    // Both kinds of verdict were exercised, many times.
    expect(significant).toBeGreaterThan(500);
    expect(notSignificant).toBeGreaterThan(500);
  }, 120_000);

  it('the cases the issue found: +30 points with n = 20 each, and a worse arm B', () => {
    const pairOf = (a: number, b: number, n: number) => {
      const trials = [
        ...Array.from({ length: n }, (_, i) => trial('none', i + 1, i < a)),
        ...Array.from({ length: n }, (_, i) => trial('react', i + 1, i < b)),
      ];
      const config: EvalConfig = {
        arms: [
          { id: 'none', host, planning: false },
          { id: 'react', host, planning: {} },
        ],
        tasks: [{ id: 't', prompt: 'p', check: () => true }],
        repetitions: n,
        seed: 1,
      };
      return buildReport(config, trials, 'completed').pairs[0];
    };
    // 10/20 vs 16/20: Fisher's p was 0.096 while the 95% Newcombe (method 10) interval left out
    // 0; now one rule gives both.
    const up = pairOf(10, 16, 20);
    expect(up?.difference.estimate).toBeCloseTo(0.3, 10);
    expect(up?.significant).toBe(up !== undefined && up.difference.low > 0);
    expect(up?.verdict).toMatch(/react - none = \+30\.0 points/);
    // A worse B: the headline and the interval are both negative.
    const down = pairOf(16, 6, 20);
    expect(down?.verdict).toMatch(
      /^react succeeds less often than none: react - none = -50\.0 points \(95% CI -\d+\.\d to -\d+\.\d\)/,
    );
  });
});
