import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRates } from './compare-rates.ts';
import { differenceInterval } from './difference-interval.ts';
import { normalQuantileOfTail, normalTail } from './normal-distribution.ts';
import { wilsonIntervalCorrected } from './wilson-interval.ts';

describe('wilsonIntervalCorrected', () => {
  it("matches Newcombe's method 4 on his published examples", () => {
    // Newcombe (1998), Statistics in Medicine 17:857, Table I: 81/263, 0/20 and 1/29.
    const a = wilsonIntervalCorrected(81, 263);
    expect(a.low).toBeCloseTo(0.2535, 4);
    expect(a.high).toBeCloseTo(0.3682, 4);
    expect(wilsonIntervalCorrected(0, 20)).toMatchObject({ low: 0 });
    expect(wilsonIntervalCorrected(0, 20).high).toBeCloseTo(0.2005, 4);
    const c = wilsonIntervalCorrected(1, 29);
    expect(c.low).toBeCloseTo(0.0018, 4);
    expect(c.high).toBeCloseTo(0.1963, 4);
  });
});

describe('differenceInterval with the continuity correction', () => {
  it("matches Newcombe's method 11 on his example (a)", () => {
    // Newcombe (1998), Statistics in Medicine 17:873, Table II: 56/70 - 48/80.
    const d = differenceInterval(
      { successes: 56, trials: 70 },
      { successes: 48, trials: 80 },
      undefined,
      { continuityCorrection: true },
    );
    expect(d.low).toBeCloseTo(0.0428, 4);
    expect(d.high).toBeCloseTo(0.3422, 4);
  });
});

describe('normalTail and normalQuantileOfTail', () => {
  it('match the standard normal table and invert each other', () => {
    expect(normalTail(1.959963984540054)).toBeCloseTo(0.025, 7);
    expect(normalTail(0)).toBeCloseTo(0.5, 7);
    expect(normalTail(-1)).toBeCloseTo(0.841344746, 6);
    expect(normalQuantileOfTail(0.025)).toBeCloseTo(1.959964, 5);
    expect(normalQuantileOfTail(0.05 / 3 / 2)).toBeCloseTo(2.39398, 5);
  });
});

describe('compareRates', () => {
  it('signs the difference b - a and gives the matching interval', () => {
    const up = compareRates({ successes: 48, trials: 80 }, { successes: 56, trials: 70 });
    expect(up.difference.estimate).toBeCloseTo(0.2, 10);
    expect(up.difference.low).toBeCloseTo(0.0428, 4);
    expect(up.significant).toBe(true);
    const down = compareRates({ successes: 56, trials: 70 }, { successes: 48, trials: 80 });
    expect(down.difference.high).toBeCloseTo(-0.0428, 4);
    expect(down.pValue).toBeCloseTo(up.pValue, 12);
  });

  it('widens the interval for more comparisons (Bonferroni)', () => {
    const one = compareRates({ successes: 10, trials: 20 }, { successes: 17, trials: 20 });
    const three = compareRates(
      { successes: 10, trials: 20 },
      { successes: 17, trials: 20 },
      { comparisons: 3 },
    );
    expect(three.confidence).toBeCloseTo(1 - 0.05 / 3, 12);
    expect(three.difference.low).toBeLessThan(one.difference.low);
    expect(three.adjustedP).toBeCloseTo(Math.min(1, 3 * one.pValue), 12);
  });

  it('never decides without trials or with equal rates', () => {
    expect(compareRates({ successes: 0, trials: 0 }, { successes: 9, trials: 9 })).toMatchObject({
      pValue: 1,
      significant: false,
    });
    expect(compareRates({ successes: 5, trials: 10 }, { successes: 10, trials: 20 })).toMatchObject(
      { pValue: 1, significant: false },
    );
  });

  it('the interval leaves out 0 exactly when the adjusted p is under the level', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 10 }),
        (na, nb, fa, fb, comparisons) => {
          const pair = compareRates(
            { successes: Math.floor(fa * na), trials: na },
            { successes: Math.floor(fb * nb), trials: nb },
            { comparisons },
          );
          const clear = pair.difference.low > 0 || pair.difference.high < 0;
          expect(pair.significant).toBe(clear);
          expect(pair.adjustedP < 0.05).toBe(clear);
          expect(pair.pValue).toBeGreaterThanOrEqual(0);
          expect(pair.pValue).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
