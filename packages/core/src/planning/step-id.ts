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

/** Longest step id a plan may hold: `S` and the digits of {@link MAX_STEP_NUMBER}. @internal */
export const MAX_STEP_ID_LENGTH: number = formatStepId(MAX_STEP_NUMBER).length;

/** The rule a step id in a plan follows, as refusals state it. @internal */
export const STEP_ID_RULE: string = `must be S and a step number from 001 to ${MAX_STEP_NUMBER} (S001, S1000), as the tools number steps`;

/**
 * Why `id` cannot be a step id in a plan, or undefined when it can: exactly what
 * {@link formatStepId} makes of a number from 1 to {@link MAX_STEP_NUMBER} (`S001`, `S1000`;
 * not `S1`, `S0001`, `Sabc` or `../../etc`), so a restored plan holds only ids the tools could
 * have minted. Linear in at most {@link MAX_STEP_ID_LENGTH} characters. @internal
 */
export function stepIdProblem(id: string): string | undefined {
  if (id.length < 4 || id.length > MAX_STEP_ID_LENGTH || id.charCodeAt(0) !== 0x53)
    return STEP_ID_RULE;
  const n = suffixNumber(id);
  // Canonical: at least three digits, and no zero padding beyond them.
  if (n < 1 || (id.length > 4 && id.charCodeAt(1) === 0x30)) return STEP_ID_RULE;
  return undefined;
}
