import { PlankitError } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { clockOption } from './clock-option.ts';

describe('clockOption', () => {
  const clock = () => 1;
  const now = () => 2;

  it('reads clock, else the deprecated now, else leaves time to the session', () => {
    expect(clockOption('f', { clock })).toBe(clock);
    expect(clockOption('f', { now })).toBe(now);
    expect(clockOption('f', {})).toBeUndefined();
    expect(clockOption('f', { clock: undefined, now: undefined })).toBeUndefined();
  });

  it('refuses clock and now together, naming the old name', () => {
    let thrown: unknown;
    try {
      clockOption('f', { clock, now });
    } catch (error) {
      thrown = error;
    }
    expect(PlankitError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'argument_invalid',
      message: 'f: options.now is the old name of options.clock; pass only clock.',
    });
  });

  it('refuses a clock that is not a function, under the name it was given', () => {
    expect(() => clockOption('f', { clock: 5 as never })).toThrow(
      'f: options.clock must be a function returning epoch milliseconds.',
    );
    expect(() => clockOption('f', { now: 5 as never })).toThrow(
      'f: options.now must be a function returning epoch milliseconds.',
    );
  });

  it("words the refusal through the caller's own error", () => {
    const error = (where: string, field: string, rule: string) =>
      new RangeError(`${where}|${field}|${rule}`);
    expect(() => clockOption('f', { clock, now }, error)).toThrow(RangeError);
  });
});
