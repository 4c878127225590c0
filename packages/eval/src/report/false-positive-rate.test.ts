import { describe, expect, it } from 'vitest';
import { seededRandom } from '../runner/seeded-random.ts';
import { compareRates } from '../stats/compare-rates.ts';
import { wilsonInterval } from '../stats/wilson-interval.ts';
import { holmAdjust } from './build-report.ts';

// Many seeded runs on simulated outcomes through the report's decision rule (compareRates),
// without the runner (which a few full runs cover in run-eval.test.ts).
function simulate(rate: number, n: number, random: () => number): number {
  let successes = 0;
  for (let i = 0; i < n; i++) if (random() < rate) successes++;
  return successes;
}

describe("the report's decision rule over many seeded runs", () => {
  it('calls equal arms significant no more often than its 5% level', () => {
    for (const [rate, n, seed] of [
      [0.6, 60, 2026],
      [0.5, 100, 5],
      [0.5, 20, 6],
      [0.3, 40, 8],
    ] as const) {
      const random = seededRandom(seed);
      const runs = 2000;
      let rejected = 0;
      for (let run = 0; run < runs; run++) {
        const a = simulate(rate, n, random);
        const b = simulate(rate, n, random);
        if (compareRates({ successes: a, trials: n }, { successes: b, trials: n }).significant)
          rejected++;
      }
      // Newcombe's method 11 is conservative, like Fisher's test: at or under 5%.
      expect(rejected / runs, `rate ${rate}, n ${n}`).toBeLessThanOrEqual(0.05);
    }
  });

  it('detects 0.8 vs 0.5 at n = 60 in most runs, and the Wilson interval covers the truth ~95%', () => {
    const random = seededRandom(7);
    const runs = 1000;
    let detected = 0;
    let covered = 0;
    for (let run = 0; run < runs; run++) {
      const a = simulate(0.5, 60, random);
      const b = simulate(0.8, 60, random);
      const pair = compareRates({ successes: a, trials: 60 }, { successes: b, trials: 60 });
      if (pair.significant && pair.difference.estimate > 0) detected++;
      const interval = wilsonInterval(b, 60);
      if (interval.low <= 0.8 && interval.high >= 0.8) covered++;
    }
    expect(detected / runs).toBeGreaterThan(0.85);
    expect(covered / runs).toBeGreaterThan(0.92);
  });

  it('keeps the family-wise error at 5% over three equal arms with Bonferroni', () => {
    const random = seededRandom(99);
    const runs = 1000;
    let anyRejected = 0;
    for (let run = 0; run < runs; run++) {
      const arms = [0, 1, 2].map(() => simulate(0.5, 40, random));
      let any = false;
      for (let i = 0; i < 3; i++)
        for (let j = i + 1; j < 3; j++)
          any ||= compareRates(
            { successes: arms[i] ?? 0, trials: 40 },
            { successes: arms[j] ?? 0, trials: 40 },
            { comparisons: 3 },
          ).significant;
      if (any) anyRejected++;
    }
    expect(anyRejected / runs).toBeLessThanOrEqual(0.05);
  });

  it('holmAdjust matches the step-down formula', () => {
    expect(holmAdjust([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holmAdjust([0.5])).toEqual([0.5]);
  });

  it('holmAdjust refuses a p-value that is not one, rather than returning NaN', () => {
    for (const p of [Number.NaN, -0.1, 2])
      expect(() => holmAdjust([0.01, p])).toThrow('pValues must be numbers from 0 to 1');
  });
});
