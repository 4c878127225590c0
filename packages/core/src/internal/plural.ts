/** `1 step`, `2 steps`: a count with its noun, the one way every refusal words a count. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
