import { describe, expect, it } from 'vitest';
import { APPROVAL_CTA, parseApprovalReply } from './parse-approval-reply.ts';

describe('parseApprovalReply', () => {
  it('has one explicit call to action', () => {
    expect(APPROVAL_CTA).toBe("Reply 'approve' or 'propose changes: ...'");
  });

  it.each([
    'approve',
    'Approve',
    'APPROVED',
    '  approve  ',
    'approve.',
    'Approved!',
    "'approve'",
    '"approve"',
    '\u201capprove\u201d',
    "'approve'.",
  ])('approves %j', (text) => {
    expect(parseApprovalReply(text)).toEqual({ outcome: 'approved' });
  });

  it.each([
    ['propose changes: move the launch to May', 'move the launch to May'],
    ['Propose Changes:   drop phase 3  ', 'drop phase 3'],
    ['propose changes :\nline one\nline two', 'line one\nline two'],
    ["'propose changes: fewer milestones'", 'fewer milestones'],
  ])('rejects %j with the changes', (text, changes) => {
    expect(parseApprovalReply(text)).toEqual({ outcome: 'rejected', changes });
  });

  it.each([
    [null, 'empty'],
    [undefined, 'empty'],
    ['', 'empty'],
    ['   \n ', 'empty'],
    ["''", 'empty'],
    ['propose changes:', 'unrecognized'],
    ['propose changes:    ', 'unrecognized'],
    ['looks good', 'unrecognized'],
    ['I approve of nothing', 'unrecognized'],
    ['approve, but drop phase 3', 'unrecognized'],
    ['disapprove', 'unrecognized'],
    ['x'.repeat(100_000), 'unrecognized'],
  ])('treats %j as no_response (%s)', (text, reason) => {
    expect(parseApprovalReply(text)).toEqual({ outcome: 'no_response', reason });
  });

  it('reads a 1 MiB reply of stops and bangs in linear time', () => {
    const run = '.!'.repeat(1 << 19);
    expect(parseApprovalReply(`${run}x`)).toEqual({
      outcome: 'no_response',
      reason: 'unrecognized',
    });
    expect(parseApprovalReply(`approve${run}`)).toEqual({ outcome: 'approved' });
  });

  it('refuses a value that is not text', () => {
    expect(() => parseApprovalReply(42 as never)).toThrowError(
      expect.objectContaining({ code: 'argument_invalid', field: 'text' }),
    );
  });
});
