/**
 * The highest step number an id may carry: `Number.MAX_SAFE_INTEGER`. Above it numbers lose
 * precision and two steps could get the same id, so restored plans may not hold such an id
 * and `planning_add_step` refuses to mint one.
 *
 * @public
 */
export const MAX_STEP_NUMBER: number = Number.MAX_SAFE_INTEGER;

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
 * Suffixes that are not all ASCII digits, or whose number is above {@link MAX_STEP_NUMBER},
 * are skipped, so new steps continue after the highest id.
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

/**
 * The number after the first character; -1 when that is empty or not all digits, -2 when it
 * is above {@link MAX_STEP_NUMBER} (where numbers stop being exact). @internal
 */
export function suffixNumber(id: string): number {
  if (id.length < 2) return -1;
  let n = 0;
  let tooBig = false;
  for (let i = 1; i < id.length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    if (!tooBig) {
      n = n * 10 + digit;
      tooBig = n > MAX_STEP_NUMBER;
    }
  }
  return tooBig ? -2 : n;
}

/** Longest step id a plan may hold. @internal */
export const MAX_STEP_ID_LENGTH = 64;

/**
 * Why `id` cannot be a step id, or undefined when it can: 1-64 printable ASCII characters
 * without spaces, and a number within {@link MAX_STEP_NUMBER} when everything after the first
 * character is digits (ids like `Sabc` are kept, and skipped when numbering). @internal
 */
export function stepIdProblem(id: string): string | undefined {
  if (id.length === 0 || id.length > MAX_STEP_ID_LENGTH)
    return `must be 1-${MAX_STEP_ID_LENGTH} characters`;
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i);
    if (code <= 0x20 || code >= 0x7f) return 'must be printable ASCII without spaces';
  }
  if (suffixNumber(id) === -2) return `must not number a step above ${MAX_STEP_NUMBER}`;
  return undefined;
}
