/**
 * Formats a step number as an id: `S` and the number padded to at least three digits
 * (`S001`, `S999`, `S1000`).
 *
 * @public
 */
export function formatStepId(n: number): string {
  return `S${String(n).padStart(3, '0')}`;
}

const DIGITS = /^[0-9]+$/;

/**
 * The highest number among the ids' suffixes (everything after the first character), or 0.
 * Suffixes that are not numbers are skipped, so new steps continue after the highest id.
 *
 * @public
 */
export function highestStepNumber(stepIds: Iterable<string>): number {
  let highest = 0;
  for (const id of stepIds) {
    const suffix = id.slice(1);
    if (!DIGITS.test(suffix)) continue;
    const n = Number(suffix);
    if (n > highest) highest = n;
  }
  return highest;
}
