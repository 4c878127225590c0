import { PlankitError, ToolValidationError } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { ControllerError } from './controller-error.ts';

describe('ControllerError', () => {
  it('carries its code, field, state, cap and cause, and is a branded PlankitError', () => {
    const cause = new Error('root');
    const error = new ControllerError('budget_exceeded', 'Too much.', {
      field: 'input.usd',
      state: 'DRAFT',
      cap: 'costUsd',
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ControllerError',
      code: 'budget_exceeded',
      message: 'Too much.',
      field: 'input.usd',
      state: 'DRAFT',
      cap: 'costUsd',
      cause,
    });
    expect(ControllerError.isInstance(error)).toBe(true);
    expect(PlankitError.isInstance(error)).toBe(true);
  });

  it('is told apart from other plankit errors and from look-alikes', () => {
    expect(ControllerError.isInstance(new ToolValidationError('x', { code: 'schema' }))).toBe(
      false,
    );
    expect(ControllerError.isInstance(new PlankitError('argument_invalid', 'x'))).toBe(false);
    expect(ControllerError.isInstance({ name: 'ControllerError', code: 'input_invalid' })).toBe(
      false,
    );
    expect(ControllerError.isInstance(null)).toBe(false);
    expect(ControllerError.isInstance('ControllerError')).toBe(false);
  });

  it('leaves field, state and cap undefined when not given', () => {
    const error = new ControllerError('machine_done', 'Done.');
    expect(error.field).toBeUndefined();
    expect(error.state).toBeUndefined();
    expect(error.cap).toBeUndefined();
    expect(error.cause).toBeUndefined();
  });
});
