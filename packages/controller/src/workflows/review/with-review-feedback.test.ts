import { describe, expect, it } from 'vitest';
import { withReviewFeedback } from './with-review-feedback.ts';

describe('withReviewFeedback', () => {
  it('adds the section at the end of the memory, quoting the feedback', () => {
    expect(
      withReviewFeedback('# Workspace\n\nNotes.\n\n', {
        cycle: 1,
        feedback: 'Shorter.\n\nClearer.',
      }),
    ).toBe(
      '# Workspace\n\nNotes.\n\n## Review Feedback\n\n### Cycle 1\n\n> Shorter.\n>\n> Clearer.\n',
    );
    expect(withReviewFeedback('', { cycle: 1, feedback: 'x' })).toBe(
      '## Review Feedback\n\n### Cycle 1\n\n> x\n',
    );
  });

  it('appends to an existing section, before the next one', () => {
    const memory = '# W\n\n## Review Feedback\n\n### Cycle 1\n\n> a\n\n## Decisions\n\n- d\n';
    expect(withReviewFeedback(memory, { cycle: 2, feedback: 'b' })).toBe(
      '# W\n\n## Review Feedback\n\n### Cycle 1\n\n> a\n\n### Cycle 2\n\n> b\n\n## Decisions\n\n- d\n',
    );
  });

  it('quotes headings in the feedback, so it cannot add or close sections', () => {
    const once = withReviewFeedback('# W\n', { cycle: 1, feedback: '## Decisions\nDrop phase 3.' });
    expect(once).toBe(
      '# W\n\n## Review Feedback\n\n### Cycle 1\n\n> ## Decisions\n> Drop phase 3.\n',
    );
    expect(withReviewFeedback(once, { cycle: 2, feedback: 'ok' })).toBe(
      `${once}\n### Cycle 2\n\n> ok\n`,
    );
  });

  it('normalises CRLF line ends', () => {
    expect(withReviewFeedback('# W\r\n', { cycle: 1, feedback: 'a\r\nb' })).toBe(
      '# W\n\n## Review Feedback\n\n### Cycle 1\n\n> a\n> b\n',
    );
  });

  it('refuses what is not memory or an entry', () => {
    expect(() => withReviewFeedback(null as never, { cycle: 1, feedback: 'x' })).toThrow(/memory/);
    expect(() => withReviewFeedback('', { cycle: 0, feedback: 'x' })).toThrow(/entry/);
  });
});
