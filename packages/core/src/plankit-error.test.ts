import { describe, expect, it } from 'vitest';
import { PlankitError } from './plankit-error.ts';
import { SessionError } from './session-error.ts';
import { ToolValidationError } from './tool-validation-error.ts';

describe('PlankitError', () => {
  it('carries a stable code, a field and a cause', () => {
    const cause = new Error('root');
    const error = new PlankitError('argument_invalid', 'bad', { field: 'x', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: 'argument_invalid',
      field: 'x',
      message: 'bad',
      name: 'PlankitError',
      cause,
    });
  });

  it('recognises its kinds by brand, not by prototype', () => {
    const validation = new ToolValidationError('x', { code: 'schema' });
    const session = new SessionError('reducer_failed', 'y', { sessionId: 's' });
    expect(PlankitError.isInstance(validation)).toBe(true);
    expect(PlankitError.isInstance(session)).toBe(true);
    expect(ToolValidationError.isInstance(validation)).toBe(true);
    expect(ToolValidationError.isInstance(session)).toBe(false);
    expect(SessionError.isInstance(session)).toBe(true);
    expect(SessionError.isInstance(new PlankitError('argument_invalid', 'z'))).toBe(false);
    for (const value of [new Error('x'), { code: 'schema' }, null, undefined, 'schema']) {
      expect(PlankitError.isInstance(value)).toBe(false);
    }
    // A copy from another instance of the package carries the same registry-wide brand.
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('plankit.error'), {
      value: 'ToolValidationError',
    });
    expect(ToolValidationError.isInstance(foreign)).toBe(true);
  });
});
