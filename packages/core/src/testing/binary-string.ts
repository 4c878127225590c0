import * as fc from 'fast-check';

// fast-check's `unit: 'binary'` draws an index over every code point but the surrogates
// (U+D800-U+DFFF) and maps it to its character; building a string arbitrary with it also
// builds a Map from each of those 1,112,064 characters back to its index (to recognise the
// strings it mixes in, such as `__proto__`), seconds of CPU in every worker that builds one.
// This unit draws the same index the same way and maps both ways by arithmetic, so it gives
// the same strings for the same seed.
const FIRST_SURROGATE = 0xd800;
const SURROGATES = 0x800;
const CODE_POINTS = 0x110000 - SURROGATES;

/** One code point that is not a surrogate, drawn as fast-check's `unit: 'binary'` draws it. */
export const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: CODE_POINTS - 1 }).map(
  (index) => String.fromCodePoint(index < FIRST_SURROGATE ? index : index + SURROGATES),
  (value) => {
    const code = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (
      code === undefined ||
      String.fromCodePoint(code) !== value ||
      (code >= FIRST_SURROGATE && code < FIRST_SURROGATE + SURROGATES)
    )
      throw new Error('Not one code point outside the surrogates');
    return code < FIRST_SURROGATE ? code : code - SURROGATES;
  },
);

/** `fc.string({ unit: 'binary', ...constraints })`, the same strings without its start-up cost. */
export function binaryString(
  constraints: Omit<fc.StringConstraints, 'unit'> = {},
): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: binaryUnit });
}
