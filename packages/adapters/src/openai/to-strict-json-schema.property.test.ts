import fc from 'fast-check';
import { toStrictJsonSchema as openaiStrict } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';
import { decodePointerToken } from './matches-strict-schema.ts';
import { strictSchemaProblem } from './strict-schema-problem.ts';
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

// A value of the strict shape, as a model in strict mode could send it.
function sample(schema: unknown, defs: Node, random: () => number, depth = 0): unknown {
  const node = schema as Node;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const ref = node['$ref'];
  if (typeof ref === 'string')
    return sample(defs[decodePointerToken(ref.slice('#/$defs/'.length))], defs, random, depth + 1);
  const anyOf = node['anyOf'] as unknown[] | undefined;
  if (anyOf !== undefined) {
    const nullBranch = anyOf.find((branch) => (branch as Node)['type'] === 'null');
    return sample(depth > 6 && nullBranch ? nullBranch : pick(anyOf), defs, random, depth + 1);
  }
  if (Array.isArray(node['enum'])) return pick(node['enum']);
  if (Object.hasOwn(node, 'const')) return node['const'];
  const types = Array.isArray(node['type']) ? node['type'] : [node['type']];
  const type = depth > 6 && types.includes('null') ? 'null' : pick(types);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return random() < 0.5;
    case 'string': {
      const min = (node['minLength'] as number | undefined) ?? 0;
      const max = (node['maxLength'] as number | undefined) ?? min + 4;
      return 's'.repeat(min + Math.floor(random() * (max - min + 1)));
    }
    case 'number':
    case 'integer': {
      const min = (node['minimum'] as number | undefined) ?? -3;
      const max = (node['maximum'] as number | undefined) ?? min + 6;
      return Math.max(min, Math.min(max, Math.ceil(min + random() * (max - min))));
    }
    case 'array': {
      const min = (node['minItems'] as number | undefined) ?? 0;
      const length = depth > 6 ? min : min + Math.floor(random() * 3);
      return Array.from({ length }, () => sample(node['items'], defs, random, depth + 1));
    }
    case 'object': {
      const out: Node = {};
      for (const [key, child] of Object.entries(node['properties'] as Node))
        out[key] = sample(child, defs, random, depth + 1);
      return out;
    }
    default:
      throw new Error(`cannot sample ${JSON.stringify(node)}`);
  }
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
        let state = seed | 0;
        const random = () => {
          state = (Math.imul(state, 1_103_515_245) + 12_345) | 0;
          return ((state >>> 8) & 0xffff) / 0x10000;
        };
        const defs = (converted.schema['$defs'] ?? {}) as Node;
        for (let round = 0; round < 4; round++) {
          const value = sample(converted.schema, defs, random);
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
