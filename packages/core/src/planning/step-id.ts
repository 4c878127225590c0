/**
 * Formats a step number as an id: `S` and the number padded to at least three digits
 * (`S001`, `S999`, `S1000`).
 *
 * @public
 */
export function formatStepId(n: number): string {
  return `S${String(n).padStart(3, '0')}`;
}

/**
 * The highest number among the ids' suffixes (everything after the first character), or 0.
 * Suffixes that are not all ASCII digits are skipped, so new steps continue after the
 * highest id.
 *
 * @public
 */
export function highestStepNumber(stepIds: Iterable<string>): number {
  let highest = 0;
  for (const id of stepIds) {
    const n = suffixNumber(id);
    if (n > highest) highest = n;
  }
  return highest;
}

/** The number after the first character, or -1 when that is empty or not all digits. @internal */
export function suffixNumber(id: string): number {
  if (id.length < 2) return -1;
  let n = 0;
  for (let i = 1; i < id.length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}
