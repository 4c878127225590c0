/**
 * The two-sided p-value of Fisher's exact test on the 2×2 table
 * `[[aSuccesses, aFailures], [bSuccesses, bFailures]]`: the probability, with the margins
 * fixed and no difference between the arms, of a table at most as likely as the one observed.
 * Exact at every sample size, so it needs none of the large-sample assumptions of a z-test.
 *
 * @public
 */
export function fisherExactTest(
  a: { readonly successes: number; readonly trials: number },
  b: { readonly successes: number; readonly trials: number },
): number {
  for (const arm of [a, b]) {
    if (
      !Number.isInteger(arm.trials) ||
      !Number.isInteger(arm.successes) ||
      arm.successes < 0 ||
      arm.successes > arm.trials
    )
      throw new RangeError('each arm needs whole successes between 0 and its trials');
  }
  const n = a.trials + b.trials;
  const successes = a.successes + b.successes;
  if (n === 0 || a.trials === 0 || b.trials === 0) return 1;
  const logFactorial = logFactorials(n);
  // P(X = x) for X ~ Hypergeometric(n, successes, a.trials): the count of successes in arm a.
  const logP = (x: number): number =>
    logChoose(logFactorial, successes, x) +
    logChoose(logFactorial, n - successes, a.trials - x) -
    logChoose(logFactorial, n, a.trials);
  const low = Math.max(0, a.trials - (n - successes));
  const high = Math.min(a.trials, successes);
  const observed = logP(a.successes);
  // Tables as likely as the observed one, up to rounding, count as "at most as likely".
  const threshold = observed + 1e-7;
  let p = 0;
  for (let x = low; x <= high; x++) {
    const lp = logP(x);
    if (lp <= threshold) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) table[i] = (table[i - 1] ?? 0) + Math.log(i);
  return table;
}

function logChoose(table: Float64Array, n: number, k: number): number {
  return (table[n] ?? 0) - (table[k] ?? 0) - (table[n - k] ?? 0);
}
