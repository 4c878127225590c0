import { describe, expect, it } from 'vitest';
import { PlankitError } from './plankit-error.ts';
import { MAX_TOOL_ISSUES, ToolValidationError } from './tool-validation-error.ts';

describe('ToolValidationError', () => {
  it('takes the message first, as every Error does, and defaults the code to invalid', () => {
    const error = new ToolValidationError('Title must not be empty.');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      message: 'Title must not be empty.',
      code: 'invalid',
      field: undefined,
      issues: [],
      name: 'ToolValidationError',
    });
  });

  it('lets a custom tool name its own code, field, issues and cause', () => {
    const cause = new Error('root');
    const error = new ToolValidationError('Ticket T-9 does not exist.', {
      code: 'ticket_unknown',
      field: 'ticket_id',
      issues: [{ path: 'ticket_id', message: 'unknown' }],
      cause,
    });
    expect(error).toMatchObject({
      message: 'Ticket T-9 does not exist.',
      code: 'ticket_unknown',
      field: 'ticket_id',
      issues: [{ path: 'ticket_id', message: 'unknown' }],
      cause,
    });
    expect(Object.isFrozen(error.issues)).toBe(true);
  });

  it('refuses the code-first form, naming the message-first one', () => {
    const codeFirst = ToolValidationError as unknown as new (
      code: string,
      message: string,
    ) => ToolValidationError;
    expect(() => new codeFirst('step_unknown', 'Step S9 does not exist.')).toThrow(
      'ToolValidationError: options must be an object: pass the message first, new ToolValidationError(message, { code })',
    );
  });

  it('is recognised across copies of the package by its brand', () => {
    const error = new ToolValidationError('x', { code: 'schema' });
    expect(ToolValidationError.isInstance(error)).toBe(true);
    expect(PlankitError.isInstance(error)).toBe(true);
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('plankit.error'), {
      value: 'ToolValidationError',
    });
    expect(ToolValidationError.isInstance(foreign)).toBe(true);
    expect(ToolValidationError.isInstance(new Error('x'))).toBe(false);
  });

  it('keeps the first MAX_TOOL_ISSUES issues and counts them all', () => {
    const issues = Array.from({ length: 1_000 }, (_, i) => ({
      path: `items[${i}]`,
      message: 'bad',
    }));
    const error = new ToolValidationError('Bad items.', { code: 'schema', issues });
    expect(error.issues).toHaveLength(MAX_TOOL_ISSUES);
    expect(error.issues[0]?.path).toBe('items[0]');
    expect(error.issueCount).toBe(1_000);
    expect(Object.isFrozen(error.issues)).toBe(true);
    const all = new ToolValidationError('Bad items.', {
      issues,
      maxIssues: Number.POSITIVE_INFINITY,
    });
    expect(all.issues).toHaveLength(1_000);
    const counted = new ToolValidationError('Bad items.', {
      issues: issues.slice(0, 5),
      issueCount: 70,
    });
    expect([counted.issues.length, counted.issueCount]).toEqual([5, 70]);
    expect(new ToolValidationError('No issues.').issueCount).toBe(0);
    for (const maxIssues of [-1, 1.5, Number.NaN])
      expect(() => new ToolValidationError('x', { maxIssues })).toThrow(/maxIssues/);
  });
});
