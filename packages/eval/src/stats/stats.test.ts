import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeSample } from './describe-sample.ts';
import { differenceInterval } from './difference-interval.ts';
import { fisherExactTest } from './fisher-exact-test.ts';
import { wilsonInterval, wilsonIntervalCorrected } from './wilson-interval.ts';

describe('wilsonInterval', () => {
  it('matches published values', () => {
    // Newcombe (1998), Statistics in Medicine 17:857, Table I: 81/263 and 15/148.
    const a = wilsonInterval(81, 263);
    expect(a.low).toBeCloseTo(0.2553, 4);
    expect(a.high).toBeCloseTo(0.3662, 4);
    const b = wilsonInterval(15, 148);
    expect(b.low).toBeCloseTo(0.0624, 4);
    expect(b.high).toBeCloseTo(0.1605, 4);
  });

  it('is exact at the ends and the whole range with no trials', () => {
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(10, 10).high).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual({ estimate: 0, low: 0, high: 1 });
  });

  it('always holds the estimate inside [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (n, f) => {
          const s = Math.floor(f * n);
          const { low, high, estimate } = wilsonInterval(s, n);
          expect(low).toBeGreaterThanOrEqual(0);
          expect(high).toBeLessThanOrEqual(1);
          expect(low).toBeLessThanOrEqual(estimate + 1e-12);
          expect(high).toBeGreaterThanOrEqual(estimate - 1e-12);
        },
      ),
    );
  });

  it('refuses impossible counts', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
  });

  it('refuses a z that would make the interval NaN', () => {
    for (const z of [Number.NaN, Number.POSITIVE_INFINITY, -1.96]) {
      expect(() => wilsonInterval(1, 3, z)).toThrow('z must be a finite number >= 0');
      expect(() => wilsonIntervalCorrected(1, 3, z)).toThrow('z must be a finite number >= 0');
    }
  });
});

describe('differenceInterval', () => {
  it("matches Newcombe's method 10 on his worked examples", () => {
    // Newcombe (1998), Statistics in Medicine 17:873, Table II, examples (a) and (e).
    const a = differenceInterval({ successes: 56, trials: 70 }, { successes: 48, trials: 80 });
    expect(a.estimate).toBeCloseTo(0.2, 10);
    expect(a.low).toBeCloseTo(0.0524, 4);
    expect(a.high).toBeCloseTo(0.3339, 4);
    const e = differenceInterval({ successes: 10, trials: 10 }, { successes: 0, trials: 20 });
    expect(e.low).toBeCloseTo(0.6791, 4);
    expect(e.high).toBeCloseTo(1, 4);
  });
});

describe('fisherExactTest', () => {
  it("matches R's fisher.test on classic tables", () => {
    // Fisher's lady tasting tea: matrix(c(3, 1, 1, 3), 2).
    expect(fisherExactTest({ successes: 3, trials: 4 }, { successes: 1, trials: 4 })).toBeCloseTo(
      0.4857,
      4,
    );
    // matrix(c(1, 11, 9, 3), 2): p = 0.002759.
    expect(
      fisherExactTest({ successes: 1, trials: 10 }, { successes: 11, trials: 14 }),
    ).toBeCloseTo(0.002759, 6);
    expect(fisherExactTest({ successes: 5, trials: 10 }, { successes: 5, trials: 10 })).toBe(1);
    expect(fisherExactTest({ successes: 0, trials: 0 }, { successes: 5, trials: 10 })).toBe(1);
  });

  it('is a probability and symmetric in the arms', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (na, nb, fa, fb) => {
          const a = { successes: Math.floor(fa * na), trials: na };
          const b = { successes: Math.floor(fb * nb), trials: nb };
          const p = fisherExactTest(a, b);
          expect(p).toBeGreaterThan(0);
          expect(p).toBeLessThanOrEqual(1);
          expect(fisherExactTest(b, a)).toBeCloseTo(p, 10);
        },
      ),
    );
  });
});

describe('describeSample', () => {
  it('gives mean and interpolated percentiles', () => {
    expect(describeSample([1, 2, 3, 4])).toEqual({ count: 4, mean: 2.5, p50: 2.5, p90: 3.7 });
    expect(describeSample([])).toEqual({ count: 0, mean: 0, p50: 0, p90: 0 });
  });

  it('refuses a value that would make every figure NaN', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => describeSample([1, value, 3])).toThrow('values must be finite numbers');
  });
});
