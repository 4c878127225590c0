import { describe, expect, it } from 'vitest';
import { PlankitError } from './plankit-error.ts';
import { ToolValidationError } from './tool-validation-error.ts';

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

  it('still reads the deprecated code-first form', () => {
    const error = new ToolValidationError('step_unknown', 'Step S9 does not exist.', {
      field: 'step_id',
    });
    expect(error).toMatchObject({
      code: 'step_unknown',
      message: 'Step S9 does not exist.',
      field: 'step_id',
    });
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
});
