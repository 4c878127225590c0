import { describe, expect, it } from 'vitest';
import { PlankitError } from '../plankit-error.ts';
import { checkOptionKeys, unknownOption } from './check-option-keys.ts';

const DECLARED: ReadonlySet<string> = new Set(['a', 'b']);

describe('unknownOption', () => {
  it('gives the first own key that is not declared', () => {
    expect(unknownOption({ a: 1, c: 2, d: 3 }, DECLARED)).toBe('c');
    expect(unknownOption({ a: 1, b: undefined }, DECLARED)).toBeUndefined();
  });

  it('ignores inherited keys, as Object.keys does', () => {
    const options = Object.create({ inherited: true }) as object;
    expect(unknownOption(options, DECLARED)).toBeUndefined();
  });
});

describe('checkOptionKeys', () => {
  it('throws argument_invalid naming the unknown option', () => {
    let thrown: unknown;
    try {
      checkOptionKeys('makeThing', { a: 1, extra: 2 }, DECLARED);
    } catch (error) {
      thrown = error;
    }
    expect(PlankitError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'argument_invalid',
      message: 'makeThing: options.extra is not an option.',
      field: 'options.extra',
    });
  });

  it('names the key with the prefix given and builds the error given', () => {
    expect(() => checkOptionKeys('new Thing', { z: 1 }, DECLARED, '')).toThrow(
      'new Thing: z is not an option.',
    );
    const error = (where: string, field: string, rule: string): Error =>
      new RangeError(`${where}|${field}|${rule}`);
    expect(() => checkOptionKeys('f', { z: 1 }, DECLARED, 'run.', error)).toThrow(
      new RangeError('f|run.z|is not an option'),
    );
  });

  it('accepts declared keys only', () => {
    expect(() => checkOptionKeys('f', { a: 1, b: 2 }, DECLARED)).not.toThrow();
  });
});
