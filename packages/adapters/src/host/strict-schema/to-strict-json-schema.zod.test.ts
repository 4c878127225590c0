// Tool inputs as zod 4 users write them, through `z.toJSONSchema` and the converter. Every
// accepted schema is checked with a JSON Schema validator (ajv): sampled strict answers are
// valid against the strict schema, and what `restore` makes of them is valid against the
// original JSON Schema and parses with the original zod schema. The same shapes written with
// TypeBox are in to-strict-json-schema.typebox.test.ts.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../../adapter-error.ts';
import { expectStrictRoundTrips } from './testing/expect-strict-round-trips.ts';
import { toStrictJsonSchema } from './to-strict-json-schema.ts';

type Node = Record<string, unknown>;

// Formats are not asserted: zod emits a `pattern` beside each one.
const sourceValidator = new Ajv2020({ strict: false, validateFormats: false });

const Tree: z.ZodType = z.lazy(() =>
  z.object({ label: z.string(), note: z.string().optional(), children: z.array(Tree) }),
);
const Outline: z.ZodType = z.lazy(() =>
  z.object({ title: z.string(), sections: z.array(Outline).optional() }),
);
const Kind = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string(), lang: z.string().optional() }),
  z.object({ kind: z.literal('count'), count: z.int().min(0).max(9) }),
]);

const accepted: readonly (readonly [string, z.ZodType])[] = [
  [
    'optional, nullable and defaulted fields',
    z.object({
      id: z.string(),
      note: z.string().optional(),
      maybe: z.string().nullable(),
      both: z.string().nullable().optional(),
      reversed: z.string().optional().nullable(),
      retries: z.int().min(0).max(5).default(2),
    }),
  ],
  [
    'enums, literals and unions',
    z.object({
      level: z.enum(['low', 'high']),
      fixed: z.literal('v1'),
      either: z.union([z.string(), z.number()]),
      flag: z.boolean().optional(),
    }),
  ],
  ['a discriminated union', z.object({ item: Kind, maybe: Kind.optional() })],
  [
    'object intersections (flattened by zod)',
    z.object({
      both: z.intersection(
        z.object({ a: z.string(), shared: z.string().optional() }),
        z.object({ b: z.number().optional(), shared: z.string().optional() }),
      ),
    }),
  ],
  [
    'an intersection with a discriminated union',
    z.object({ tagged: z.intersection(z.object({ id: z.string() }), Kind) }),
  ],
  [
    'records with enum keys, whole and partial',
    z.object({
      scores: z.record(z.enum(['a', 'b']), z.number()),
      some: z.partialRecord(z.enum(['x', 'y']), z.string()),
    }),
  ],
  ['a recursive z.lazy tree', z.object({ root: Tree, spare: Tree.optional() })],
  ['a recursive root (z.lazy, `$ref: "#"`)', Outline],
  [
    'formats and bounds',
    z.object({
      email: z.email(),
      id: z.uuid(),
      at: z.iso.datetime(),
      day: z.iso.date(),
      code: z.string().min(2).max(4),
      tags: z.array(z.string()).min(1).max(3),
    }),
  ],
  [
    '.nullable().optional() chains of objects and arrays',
    z.object({
      owner: z.object({ name: z.string(), mail: z.email().optional() }).nullable().optional(),
      list: z.array(z.object({ x: z.number().optional() })).optional(),
    }),
  ],
];

function jsonSchemaOf(schema: z.ZodType): Node {
  return z.toJSONSchema(schema, { io: 'input' }) as Node;
}

describe('toStrictJsonSchema on zod 4 schemas', () => {
  for (const [name, schema] of accepted) {
    it(`converts ${name}; sampled answers validate and restore to valid input`, () => {
      const source = jsonSchemaOf(schema);
      const converted = toStrictJsonSchema(source);
      // The output keeps the source's dialect (zod writes 2020-12), as openai-node keeps it.
      expect(converted.schema['$schema']).toBe(source['$schema']);
      const accepts = (input: unknown) => schema.safeParse(input).success;
      expectStrictRoundTrips(source, converted, sourceValidator, accepts, name.length);
    });
  }

  it('reads the nulls of optional fields back as absent, and keeps nullable ones', () => {
    const { restore } = toStrictJsonSchema(jsonSchemaOf(accepted[0]?.[1] as z.ZodType));
    expect(
      restore({ id: 'a', note: null, maybe: null, both: null, reversed: null, retries: null }),
    ).toEqual({ id: 'a', maybe: null, both: null, reversed: null });
  });

  it('restores through the branch of a union intersection the answer matches', () => {
    const { restore } = toStrictJsonSchema(jsonSchemaOf(accepted[4]?.[1] as z.ZodType));
    expect(restore({ tagged: { id: 'x', kind: 'text', text: 't', lang: null } })).toEqual({
      tagged: { id: 'x', kind: 'text', text: 't' },
    });
  });

  it('restores a recursive tree at every depth', () => {
    const { restore } = toStrictJsonSchema(jsonSchemaOf(accepted[6]?.[1] as z.ZodType));
    const leaf = { label: 'leaf', note: null, children: [] };
    expect(
      restore({ root: { label: 'r', note: 'n', children: [leaf, { ...leaf, children: [leaf] }] } }),
    ).toEqual({
      root: {
        label: 'r',
        note: 'n',
        children: [
          { label: 'leaf', children: [] },
          { label: 'leaf', children: [{ label: 'leaf', children: [] }] },
        ],
      },
    });
  });

  const refused: readonly (readonly [string, z.ZodType, RegExp])[] = [
    [
      'a record with string keys (a map)',
      z.object({ map: z.record(z.string(), z.number()) }),
      /'propertyNames' at map\.|'additionalProperties' other than false .* at map\./,
    ],
    ['a tuple', z.object({ pair: z.tuple([z.string(), z.number()]) }), /'prefixItems' at pair\./],
    ['a discriminated union at the root', Kind, /'anyOf' at the root/],
    ['z.any()', z.object({ anything: z.any() }), /accepts values of any type.* at anything\./],
  ];
  for (const [name, schema, message] of refused) {
    it(`refuses ${name} with schema_unsupported, naming the keyword and path`, () => {
      let caught: unknown;
      try {
        toStrictJsonSchema(jsonSchemaOf(schema));
      } catch (error) {
        caught = error;
      }
      expect(AdapterError.isInstance(caught)).toBe(true);
      expect((caught as AdapterError).code).toBe('schema_unsupported');
      expect((caught as Error).message).toMatch(message);
    });
  }
});
