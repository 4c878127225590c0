import { type ProportionInterval, wilsonInterval, Z_95 } from './wilson-interval.ts';

/**
 * The 95% interval for the difference of two success rates, `a - b`, by Newcombe's hybrid
 * score method (his method 10), built from each arm's Wilson interval: well behaved at 0%
 * and 100% and at small n, where the Wald interval fails.
 *
 * @public
 */
export function differenceInterval(
  a: { readonly successes: number; readonly trials: number },
  b: { readonly successes: number; readonly trials: number },
  z: number = Z_95,
): ProportionInterval {
  const wa = wilsonInterval(a.successes, a.trials, z);
  const wb = wilsonInterval(b.successes, b.trials, z);
  const d = wa.estimate - wb.estimate;
  const low = d - Math.sqrt((wa.estimate - wa.low) ** 2 + (wb.high - wb.estimate) ** 2);
  const high = d + Math.sqrt((wa.high - wa.estimate) ** 2 + (wb.estimate - wb.low) ** 2);
  return { estimate: d, low: Math.max(-1, low), high: Math.min(1, high) };
}
