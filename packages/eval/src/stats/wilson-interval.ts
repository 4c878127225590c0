/** A two-sided interval for a proportion. @public */
export interface ProportionInterval {
  /** Successes / trials (0 when there are no trials). */
  readonly estimate: number;
  /** Lower bound, in [0, 1]. */
  readonly low: number;
  /** Upper bound, in [0, 1]. */
  readonly high: number;
}

/** The normal quantile for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

/** With no trials, nothing is known: the whole of [0, 1]. */
const WHOLE: ProportionInterval = Object.freeze({ estimate: 0, low: 0, high: 1 });

/**
 * Refuses counts that are not whole numbers with 0 <= successes <= trials, and a z that is not a
 * finite number >= 0 (programmer errors).
 */
function checkCounts(successes: number, trials: number, z: number): void {
  if (!(z >= 0 && z < Number.POSITIVE_INFINITY))
    throw new RangeError('z must be a finite number >= 0');
  if (!Number.isInteger(trials) || trials < 0)
    throw new RangeError('trials must be a whole number >= 0');
  if (!Number.isInteger(successes) || successes < 0 || successes > trials)
    throw new RangeError('successes must be a whole number between 0 and trials');
}

/**
 * The Wilson score interval for `successes` out of `trials`: unlike the textbook `p ± z·se`, it
 * stays inside [0, 1] and keeps its coverage near 95% at the small sample sizes agent evals run.
 * With no trials the interval is the whole of [0, 1].
 *
 * @public
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  z: number = Z_95,
): ProportionInterval {
  checkCounts(successes, trials, z);
  if (trials === 0) return WHOLE;
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return {
    estimate: p,
    // The exact ends are 0 and 1 when every trial failed or succeeded; rounding must not move them.
    low: successes === 0 ? 0 : Math.max(0, center - half),
    high: successes === trials ? 1 : Math.min(1, center + half),
  };
}

/**
 * The Wilson score interval with continuity correction (Newcombe's 1998 method 4) for
 * `successes` out of `trials`: a little wider than {@link wilsonInterval}, and at small n it
 * keeps its coverage at or above the nominal level. With no trials it is the whole of [0, 1].
 *
 * @public
 */
export function wilsonIntervalCorrected(
  successes: number,
  trials: number,
  z: number = Z_95,
): ProportionInterval {
  checkCounts(successes, trials, z);
  if (trials === 0) return WHOLE;
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 2 * (n + z2);
  const lowRoot = Math.sqrt(Math.max(0, z2 - 2 - 1 / n + 4 * p * (n * (1 - p) + 1)));
  const highRoot = Math.sqrt(Math.max(0, z2 + 2 - 1 / n + 4 * p * (n * (1 - p) - 1)));
  return {
    estimate: p,
    low: successes === 0 ? 0 : Math.max(0, (2 * n * p + z2 - 1 - z * lowRoot) / denominator),
    high: successes === n ? 1 : Math.min(1, (2 * n * p + z2 + 1 + z * highRoot) / denominator),
  };
}
