import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryString, binaryUnit } from './binary-string.ts';

describe('binaryString', () => {
  it("gives the strings fast-check's unit: 'binary' gives, for the same seeds", () => {
    for (const constraints of [{}, { maxLength: 12 }, { minLength: 1, maxLength: 1 }]) {
      for (const seed of [1, 42, 20_261_207]) {
        const ours = fc.sample(binaryString(constraints), { seed, numRuns: 200 });
        const theirs = fc.sample(fc.string({ unit: 'binary', ...constraints }), {
          seed,
          numRuns: 200,
        });
        expect(ours).toEqual(theirs);
      }
    }
    // Building fast-check's own once per worker takes seconds on a busy machine.
  }, 120_000);

  it('maps every code point but the surrogates back to the index it was drawn from', () => {
    for (const code of [0, 0x41, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x1f600, 0x10ffff]) {
      const char = String.fromCodePoint(code);
      expect(binaryUnit.canShrinkWithoutContext(char)).toBe(true);
    }
    for (const value of ['\ud800', '\udfff', 'ab', '', 7]) {
      expect(binaryUnit.canShrinkWithoutContext(value)).toBe(false);
    }
    expect(binaryString().canShrinkWithoutContext('__proto__')).toBe(true);
  });
});
