/**
 * The upper tail of the standard normal distribution, `P(Z > z)`, from the complementary error
 * function (W. J. Cody's rational approximations as in Numerical Recipes' `erfcc`, relative
 * error below 1.2e-7): accurate to far more digits than a report shows, and strictly
 * decreasing, which is what keeps a p-value and the interval it comes from in agreement.
 */
export function normalTail(z: number): number {
  return erfc(z / Math.SQRT2) / 2;
}

/**
 * The `z` with `normalTail(z) = tail`, for `tail` in (0, 1): found by bisection on
 * {@link normalTail} itself, so the two are exact inverses of each other up to 1e-12 in `z`.
 */
export function normalQuantileOfTail(tail: number): number {
  if (!(tail > 0 && tail < 1)) throw new RangeError('tail must be in (0, 1)');
  let low = -40;
  let high = 40;
  for (let i = 0; i < 200 && high - low > 1e-12; i++) {
    const mid = (low + high) / 2;
    if (normalTail(mid) > tail) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
