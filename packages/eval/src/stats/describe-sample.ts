/** Mean and percentiles of a sample. @public */
export interface SampleSummary {
  /** How many values. */
  readonly count: number;
  /** Arithmetic mean (0 for an empty sample). */
  readonly mean: number;
  /** Median, by linear interpolation between closest ranks. */
  readonly p50: number;
  /** 90th percentile, likewise. */
  readonly p90: number;
}

/**
 * Mean, median and 90th percentile of `values` (linear interpolation between closest ranks, as
 * numpy's default). An empty sample summarises to zeros with `count: 0`.
 *
 * @throws RangeError for a value that is not a finite number
 *
 * @public
 */
export function describeSample(values: readonly number[]): SampleSummary {
  // A NaN would sort anywhere and make every figure NaN; refuse it (a programmer error).
  if (!values.every(Number.isFinite)) throw new RangeError('values must be finite numbers');
  if (values.length === 0) return { count: 0, mean: 0, p50: 0, p90: 0 };
  const sorted = [...values].sort((x, y) => x - y);
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    mean: sum / sorted.length,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
  };
}

function percentile(sorted: readonly number[], q: number): number {
  const rank = q * (sorted.length - 1);
  const below = Math.floor(rank);
  const above = Math.ceil(rank);
  const low = sorted[below] ?? 0;
  const high = sorted[above] ?? low;
  return low + (high - low) * (rank - below);
}
