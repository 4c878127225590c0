import {
  type ProportionInterval,
  wilsonInterval,
  wilsonIntervalCorrected,
  Z_95,
} from './wilson-interval.ts';

/** Options of {@link differenceInterval}. @public */
export interface DifferenceIntervalOptions {
  /**
   * Build from continuity-corrected Wilson intervals (Newcombe's method 11) rather than plain
   * ones (method 10): wider, and its test keeps the false-positive rate at or under the level.
   * The report uses it. `false` by default.
   */
  readonly continuityCorrection?: boolean | undefined;
}

/**
 * The interval for the difference of two success rates, `a - b`, by Newcombe's hybrid score
 * method (his method 10, or 11 with `continuityCorrection`), built from each arm's Wilson
 * interval: well behaved at 0% and 100% and at small n, where the Wald interval fails. `z` sets
 * the confidence; 95% by default.
 *
 * @public
 */
export function differenceInterval(
  a: { readonly successes: number; readonly trials: number },
  b: { readonly successes: number; readonly trials: number },
  z: number = Z_95,
  options: DifferenceIntervalOptions = {},
): ProportionInterval {
  const wilson = options.continuityCorrection === true ? wilsonIntervalCorrected : wilsonInterval;
  const wa = wilson(a.successes, a.trials, z);
  const wb = wilson(b.successes, b.trials, z);
  const d = wa.estimate - wb.estimate;
  const low = d - Math.sqrt((wa.estimate - wa.low) ** 2 + (wb.high - wb.estimate) ** 2);
  const high = d + Math.sqrt((wa.high - wa.estimate) ** 2 + (wb.estimate - wb.low) ** 2);
  return { estimate: d, low: Math.max(-1, low), high: Math.min(1, high) };
}
