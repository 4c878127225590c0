import fc from 'fast-check';
import { toStrictJsonSchema as openaiStrict } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';
import { strictSchemaProblem } from './strict-schema-problem.ts';
import { sampleStrictValue, seededRandom } from './testing/sample-strict-value.ts';
import { toStrictJsonSchema } from './to-strict-json-schema.ts';

type Node = Record<string, unknown>;

// Zod schemas of tool parameters: scalars with bounds, literals, enums, nullables, arrays,
// nested objects with optional and defaulted fields, unions and discriminated unions.
const { value: valueArb } = fc.letrec<{ value: z.ZodType; object: z.ZodType }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(z.string()),
    fc.tuple(fc.nat(3), fc.nat(4)).map(([min, extra]) =>
      z
        .string()
        .min(min)
        .max(min + extra),
    ),
    fc.tuple(fc.integer({ min: -5, max: 5 }), fc.nat(10)).map(([min, span]) =>
      z
        .int()
        .min(min)
        .max(min + span),
    ),
    fc.constant(z.number()),
    fc.constant(z.boolean()),
    fc.constant(z.null()),
    fc.constantFrom('a', 'b').map((text) => z.literal(text)),
    fc
      .uniqueArray(fc.constantFrom('x', 'y', 'z'), { minLength: 1 })
      .map((values) => z.enum(values as [string, ...string[]])),
    tie('value').map((inner) => (inner as z.ZodType).nullable()),
    fc
      .tuple(tie('value'), fc.option(fc.nat(2), { nil: undefined }))
      .map(([inner, min]) =>
        min === undefined ? z.array(inner as z.ZodType) : z.array(inner as z.ZodType).min(min),
      ),
    fc.tuple(tie('value'), tie('value')).map(([a, b]) => z.union([a as z.ZodType, b as z.ZodType])),
    fc
      .tuple(tie('object'), tie('object'))
      .map(([a, b]) =>
        z.discriminatedUnion('kind', [
          (a as z.ZodObject).extend({ kind: z.literal('one') }),
          (b as z.ZodObject).extend({ kind: z.literal('two') }),
        ]),
      ),
    tie('object'),
  ),
  object: fc
    .array(
      fc.tuple(
        fc.constantFrom('alpha', 'beta', 'gamma', 'delta'),
        tie('value'),
        fc.constantFrom('required', 'optional', 'default', 'described'),
      ),
      { maxLength: 3 },
    )
    .map((fields) => {
      const shape: Record<string, z.ZodType> = {};
      for (const [key, schema, mode] of fields) {
        const inner = schema as z.ZodType;
        shape[key] =
          mode === 'optional'
            ? inner.optional()
            : mode === 'default'
              ? z.string().default('fallback')
              : mode === 'described'
                ? inner.describe(`The ${key}.`).optional()
                : inner;
      }
      return z.object(shape);
    }),
}));

const parametersArb = valueArb.chain((first) =>
  fc
    .tuple(fc.constant(first), valueArb)
    .map(([a, b]) => z.object({ first: a, second: b.optional() })),
);

function jsonSchemaOf(schema: z.ZodType): Node {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-7',
  }) as Node;
  return rest;
}

describe('toStrictJsonSchema properties', () => {
  it('refuses with schema_unsupported, or keeps the strict rules and restores every strict value to a valid one', () => {
    let accepted = 0;
    fc.assert(
      fc.property(parametersArb, fc.integer(), (parameters, seed) => {
        const source = jsonSchemaOf(parameters);
        let converted: ReturnType<typeof toStrictJsonSchema>;
        try {
          converted = toStrictJsonSchema(source);
        } catch (error) {
          expect(AdapterError.isInstance(error)).toBe(true);
          expect((error as AdapterError).code).toBe('schema_unsupported');
          return;
        }
        accepted++;
        expect(strictSchemaProblem(converted.schema)).toBeUndefined();
        // The openai package's own strict transform accepts what we produce.
        expect(() => openaiStrict(structuredClone(converted.schema) as never)).not.toThrow();
        const random = seededRandom(seed);
        const defs = (converted.schema['$defs'] ?? {}) as Node;
        for (let round = 0; round < 4; round++) {
          const value = sampleStrictValue(converted.schema, defs, random);
          const restored = converted.restore(value);
          const parsed = parameters.safeParse(restored);
          expect(parsed.success, JSON.stringify({ value, restored, source })).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});
