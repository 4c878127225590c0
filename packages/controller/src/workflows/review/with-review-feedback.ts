import { isRecord } from '@plankit/core/internal-unstable';
import { argumentError, isInteger } from '../internal/checks.ts';

/** One change request, as {@link withReviewFeedback} writes it. @public */
export interface FeedbackEntry {
  /** The change request's number, from 1. */
  readonly cycle: number;
  /** The reviewer's words. */
  readonly feedback: string;
}

const HEADING = '## Review Feedback';

/** Top-level headings end a section: `# ` and `## ` lines. */
const isSectionHeading = (line: string): boolean => /^#{1,2}\s/.test(line);

/**
 * Returns `workspace.md` with the feedback added under its `## Review Feedback` section
 * (created at the end when missing), as a `### Cycle N` entry after the earlier ones. Each
 * line of feedback is quoted (`> `), so the reviewer's text cannot add or close sections.
 * Because the memory is injected into every phase prompt, the feedback survives compaction
 * and history resets.
 *
 * @throws WorkflowError `argument_invalid` for memory that is not a string or a bad entry
 * @example
 * ```ts
 * await writeFile('workspace.md', withReviewFeedback(memory, { cycle: 1, feedback }));
 * ```
 * @public
 */
export function withReviewFeedback(memory: string, entry: FeedbackEntry): string {
  if (typeof memory !== 'string')
    throw argumentError('withReviewFeedback', 'memory', 'must be a string');
  if (
    !isRecord(entry) ||
    !isInteger(entry.cycle, 1, Number.MAX_SAFE_INTEGER) ||
    typeof entry.feedback !== 'string'
  ) {
    throw argumentError(
      'withReviewFeedback',
      'entry',
      'must be { cycle: integer >= 1, feedback: string }',
    );
  }
  const quoted = entry.feedback
    .replace(/\r\n?/g, '\n')
    .trim()
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
  const block = `### Cycle ${entry.cycle}\n\n${quoted}`;
  const text = memory.replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trimEnd() === HEADING);
  if (start === -1) {
    const body = text.trim() === '' ? '' : `${text.trimEnd()}\n\n`;
    return `${body}${HEADING}\n\n${block}\n`;
  }
  let end = start + 1;
  while (end < lines.length && !isSectionHeading(lines[end] as string)) end++;
  const before = lines.slice(0, end).join('\n').trimEnd();
  const after = lines.slice(end).join('\n');
  return after === '' ? `${before}\n\n${block}\n` : `${before}\n\n${block}\n\n${after}`;
}
