// Sentence ends in the scripts the plan text may use: Latin, CJK full-width and the ellipsis.
const ENDS = /[.!?\u2026\u3002\uFF01\uFF1F]$/u;

/**
 * `text` as a sentence: with a full stop added unless it already ends as one, so a quoted
 * objective such as `Fix the bug.` reads `Fix the bug.` rather than `Fix the bug..`.
 */
export function endSentence(text: string): string {
  return ENDS.test(text) ? text : `${text}.`;
}
