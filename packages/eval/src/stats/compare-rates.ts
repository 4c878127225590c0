import { differenceInterval } from './difference-interval.ts';
import { normalQuantileOfTail, normalTail } from './normal-distribution.ts';
import type { ProportionInterval } from './wilson-interval.ts';

/** Successes out of trials of one arm. @public */
export interface RateCount {
  /** Trials that passed. */
  readonly successes: number;
  /** Trials counted. */
  readonly trials: number;
}

/** Options of {@link compareRates}. @public */
export interface CompareRatesOptions {
  /** The family-wise significance level; 0.05 by default. */
  readonly level?: number | undefined;
  /** How many pairs the report compares (the Bonferroni divisor); 1 by default. */
  readonly comparisons?: number | undefined;
}

/** What {@link compareRates} decides for one pair. @public */
export interface RateComparison {
  /** `rate(b) - rate(a)`, with Newcombe's interval (method 11) at {@link RateComparison.confidence}. */
  readonly difference: ProportionInterval;
  /** The interval's confidence: `1 - level / comparisons`. */
  readonly confidence: number;
  /**
   * The two-sided p-value of the interval itself: the smallest `alpha` at which Newcombe's
   * `1 - alpha` interval leaves out zero (1 when it never does: equal rates, an arm without
   * trials, or a gap inside the continuity correction).
   */
  readonly pValue: number;
  /** `min(1, comparisons * pValue)` (Bonferroni). */
  readonly adjustedP: number;
  /** The interval leaves out zero; the same as `adjustedP < level`. */
  readonly significant: boolean;
}

/**
 * The report's one decision rule for a pair of arms: the difference `b - a` with Newcombe's
 * hybrid score interval with continuity correction (his method 11) at confidence `1 - level / comparisons`, significant exactly when that
 * interval leaves out zero, and the p-value found by inverting the same interval (the level at
 * which it starts to leave out zero), adjusted by Bonferroni. The interval, the p-value and the
 * verdict therefore never disagree: `significant`, `adjustedP < level` and "the interval
 * excludes 0" are one statement.
 *
 * @example
 * ```ts
 * const pair = compareRates({ successes: 10, trials: 20 }, { successes: 16, trials: 20 });
 * // pair.difference.estimate === 0.3 (b - a), pair.significant === pair.adjustedP < 0.05
 * ```
 * @public
 */
export function compareRates(
  a: RateCount,
  b: RateCount,
  options: CompareRatesOptions = {},
): RateComparison {
  const level = options.level ?? 0.05;
  const comparisons = options.comparisons ?? 1;
  if (!(level > 0 && level < 1)) throw new RangeError('level must be in (0, 1)');
  if (!Number.isInteger(comparisons) || comparisons < 1)
    throw new RangeError('comparisons must be a whole number >= 1');
  const z = normalQuantileOfTail(level / comparisons / 2);
  const difference = differenceInterval(b, a, z, CORRECTED);
  const pValue = intervalPValue(a, b);
  const significant = difference.low > 0 || difference.high < 0;
  return {
    difference,
    confidence: 1 - level / comparisons,
    pValue,
    adjustedP: Math.min(1, comparisons * pValue),
    significant,
  };
}

const CORRECTED = { continuityCorrection: true } as const;

/** The `alpha` at which Newcombe's interval for `b - a` reaches zero, by bisection on its `z`. */
function intervalPValue(a: RateCount, b: RateCount): number {
  if (a.trials === 0 || b.trials === 0) return 1;
  const d = b.successes / b.trials - a.successes / a.trials;
  if (d === 0) return 1;
  // The bound nearer zero moves monotonically towards (and past) zero as z grows.
  const clear = (z: number): boolean => {
    const interval = differenceInterval(b, a, z, CORRECTED);
    return d > 0 ? interval.low > 0 : interval.high < 0;
  };
  // With the continuity correction even z = 0 leaves a margin: a gap inside it is never clear.
  if (!clear(0)) return 1;
  let low = 0;
  let high = 40;
  if (clear(high)) return Math.min(1, 2 * normalTail(high));
  for (let i = 0; i < 200 && high - low > 1e-12; i++) {
    const mid = (low + high) / 2;
    if (clear(mid)) low = mid;
    else high = mid;
  }
  return Math.min(1, 2 * normalTail(high));
}
