import { Ajv } from 'ajv';
import fc from 'fast-check';
import { toStrictJsonSchema as openaiStrict } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../../adapter-error.ts';
import { strictSchemaProblem } from './strict-schema-problem.ts';
import { NO_VALUE, sampleStrictValue, seededRandom } from './testing/sample-strict-value.ts';
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
        fc.constantFrom('required', 'optional', 'default', 'described', 'annotated'),
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
                : mode === 'annotated'
                  ? // Annotations the output keeps: they must change nothing else.
                    inner.meta({ $comment: `About ${key}.`, examples: ['sample', 1, null] })
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

/** The conversion of `source`, or undefined when it is refused, as it must be, with schema_unsupported. */
function convertedOrRefused(source: Node): ReturnType<typeof toStrictJsonSchema> | undefined {
  try {
    return toStrictJsonSchema(source);
  } catch (error) {
    expect(AdapterError.isInstance(error)).toBe(true);
    expect((error as AdapterError).code).toBe('schema_unsupported');
    return undefined;
  }
}

describe('toStrictJsonSchema properties', () => {
  it('refuses with schema_unsupported, or keeps the strict rules and restores every strict value to a valid one', () => {
    let accepted = 0;
    fc.assert(
      fc.property(parametersArb, fc.integer(), (parameters, seed) => {
        const source = jsonSchemaOf(parameters);
        const converted = convertedOrRefused(source);
        if (converted === undefined) return;
        accepted++;
        expect(strictSchemaProblem(converted.schema)).toBeUndefined();
        // Annotations are kept: as many `$comment`s and `examples` as the source has.
        const count = (schema: unknown, key: string) =>
          JSON.stringify(schema).split(`"${key}":`).length;
        for (const key of ['$comment', 'examples'])
          expect(count(converted.schema, key)).toBe(count(source, key));
        // The openai package's own strict transform accepts what we produce.
        expect(() => openaiStrict(structuredClone(converted.schema) as never)).not.toThrow();
        const random = seededRandom(seed);
        const defs = (converted.schema['$defs'] ?? {}) as Node;
        for (let round = 0; round < 4; round++) {
          const value = sampleStrictValue(converted.schema, defs, random);
          if (value === NO_VALUE) continue;
          const restored = converted.restore(value);
          const parsed = parameters.safeParse(restored);
          expect(parsed.success, JSON.stringify({ value, restored, source })).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  // Hand-written and generated `allOf`s (OpenAPI documents, TypeBox's Type.Intersect): object
  // branches over a few shared keys, closed or open, nullable or not, some through `$defs`.
  const leafArb = fc.constantFrom<Node>(
    { type: 'string' },
    { type: 'string', maxLength: 3 },
    { type: 'number' },
    { type: 'integer', minimum: 0, maximum: 5 },
    { type: ['string', 'null'] },
    { enum: ['a', 'b'] },
    { type: 'boolean' },
  );
  const branchArb = fc
    .record({
      properties: fc.dictionary(fc.constantFrom('p', 'q', 'r', 's'), leafArb, { maxKeys: 3 }),
      required: fc.subarray(['p', 'q', 'r', 's']),
      type: fc.constantFrom<unknown>(undefined, 'object', ['object', 'null']),
      closed: fc.boolean(),
      viaRef: fc.boolean(),
    })
    .map(({ properties, required, type, closed, viaRef }) => {
      const branch: Node = { properties, required: required.filter((key) => key in properties) };
      if (type !== undefined) branch['type'] = type;
      if (closed) branch['additionalProperties'] = false;
      return { branch, viaRef };
    });
  const allOfArb = fc.array(branchArb, { minLength: 2, maxLength: 3 }).map((branches) => {
    const $defs: Node = {};
    const allOf = branches.map(({ branch, viaRef }, index) => {
      if (!viaRef) return branch;
      $defs[`B${index}`] = branch;
      return { $ref: `#/$defs/B${index}` };
    });
    return { type: 'object', properties: { value: { allOf } }, required: ['value'], $defs };
  });
  const candidateArb = fc.dictionary(
    fc.constantFrom('p', 'q', 'r', 's', 'extra'),
    fc.constantFrom<unknown>('a', 'abcd', 1, 2.5, 7, null, true),
  );

  it('merges an allOf exactly: restored answers validate against it, and its values have answers', () => {
    const ajv = new Ajv({ strict: false });
    let merged = 0;
    fc.assert(
      fc.property(
        allOfArb,
        fc.array(candidateArb, { maxLength: 6 }),
        fc.integer(),
        (source, candidates, seed) => {
          const converted = convertedOrRefused(source);
          if (converted === undefined) return;
          merged++;
          expect(strictSchemaProblem(converted.schema)).toBeUndefined();
          // The openai package's own strict transform accepts what we produce.
          expect(() => openaiStrict(structuredClone(converted.schema) as never)).not.toThrow();
          const sourceValid = ajv.compile(source);
          const strictValid = ajv.compile(converted.schema);
          const random = seededRandom(seed);
          const defs = (converted.schema['$defs'] ?? {}) as Node;
          for (let round = 0; round < 4; round++) {
            const answer = sampleStrictValue(converted.schema, defs, random);
            if (answer === NO_VALUE) continue; // the allOf accepts nothing
            const input = converted.restore(answer);
            expect(sourceValid(input), JSON.stringify({ source, answer, input })).toBe(true);
          }
          // Every object the allOf accepts has a strict answer: its absent fields sent as null.
          // (Keys no branch declares are out: an open object is closed, the documented narrowing.)
          const value = (converted.schema['properties'] as Node)['value'] as Node;
          const keys = Object.keys((value['properties'] ?? {}) as Node);
          for (const candidate of candidates) {
            if (Object.keys(candidate).some((key) => !keys.includes(key))) continue;
            if (!sourceValid({ value: candidate })) continue;
            const answer: Node = {};
            for (const key of keys)
              answer[key] = candidate[key] === undefined ? null : candidate[key];
            expect(strictValid({ value: answer }), JSON.stringify({ source, candidate })).toBe(
              true,
            );
            // Back the same, except that an optional field whose schema takes null itself cannot
            // tell absent from null: absent comes back as null (documented).
            const restored = (converted.restore({ value: answer }) as Node)['value'] as Node;
            expect(sourceValid({ value: restored })).toBe(true);
            for (const key of keys)
              if (candidate[key] !== undefined || restored[key] !== null)
                expect(restored[key], key).toEqual(candidate[key]);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(merged).toBeGreaterThan(50);
  });
});
