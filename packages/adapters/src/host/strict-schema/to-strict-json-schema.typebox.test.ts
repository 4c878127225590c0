// Tool inputs as TypeBox users write them: the shapes of the zod suite beside this file, written
// with TypeBox 1 (`typebox`), whose schemas are JSON Schema as they are. TypeBox writes an
// intersection as an `allOf` of object branches (zod flattens it), so these are the `allOf`
// merges a real user meets. Every accepted schema is checked as the zod ones are: sampled strict
// answers validate against the strict schema (ajv), and what `restore` makes of them is valid
// against the original schema, by ajv and by TypeBox's own `Value.Check`.
import { Ajv } from 'ajv';
import Type, { type TSchema } from 'typebox';
import Value from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { AdapterError } from '../../adapter-error.ts';
import { expectStrictRoundTrips } from './testing/expect-strict-round-trips.ts';
import { toStrictJsonSchema } from './to-strict-json-schema.ts';

type Node = Record<string, unknown>;

// Formats are not asserted: a sampled date is a shape, not a calendar.
const validator = new Ajv({ strict: false, validateFormats: false });

const Name = Type.Object({ id: Type.String(), name: Type.String() });
const Audit = Type.Object({ by: Type.String(), note: Type.Optional(Type.String()) });
const Kind = Type.Union([
  Type.Object({ kind: Type.Literal('text'), text: Type.String() }),
  Type.Object({
    kind: Type.Literal('image'),
    url: Type.String(),
    alt: Type.Optional(Type.String()),
  }),
]);

const accepted: readonly (readonly [string, TSchema])[] = [
  [
    'optional, nullable and optional-nullable fields',
    Type.Object({
      id: Type.String(),
      note: Type.Optional(Type.String()),
      maybe: Type.Union([Type.String(), Type.Null()]),
      both: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    }),
  ],
  [
    'enums, literals and unions',
    Type.Object({
      level: Type.Enum(['low', 'mid', 'high']),
      fixed: Type.Literal('v1'),
      either: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
    }),
  ],
  ['a discriminated union', Type.Object({ item: Kind })],
  ['an intersection (allOf of objects)', Type.Intersect([Name, Audit])],
  ['a nested intersection', Type.Object({ entry: Type.Intersect([Name, Audit]) })],
  [
    'an intersection with a discriminated union',
    Type.Object({ tagged: Type.Intersect([Type.Object({ id: Type.String() }), Kind]) }),
  ],
  [
    'a record with literal keys (a closed object)',
    Type.Object({
      scores: Type.Record(Type.Union([Type.Literal('a'), Type.Literal('b')]), Type.Number()),
    }),
  ],
  [
    'formats and bounds',
    Type.Object({
      due: Type.String({ format: 'date' }),
      count: Type.Integer({ minimum: 1, maximum: 9 }),
      tags: Type.Array(Type.String(), { minItems: 1, maxItems: 3 }),
    }),
  ],
  [
    'optional objects and arrays, nullable or not',
    Type.Object({
      owner: Type.Optional(
        Type.Union([
          Type.Object({ name: Type.String(), mail: Type.Optional(Type.String()) }),
          Type.Null(),
        ]),
      ),
      list: Type.Optional(Type.Array(Type.Object({ x: Type.Optional(Type.Number()) }))),
    }),
  ],
];

describe('toStrictJsonSchema on TypeBox schemas', () => {
  for (const [name, schema] of accepted) {
    it(`converts ${name}; sampled answers validate and restore to valid input`, () => {
      const source = structuredClone(schema) as Node;
      const converted = toStrictJsonSchema(source);
      const accepts = (input: unknown) => Value.Check(schema, input);
      expectStrictRoundTrips(source, converted, validator, accepts, name.length);
    });
  }

  it('merges an intersection into one closed object, and reads optional nulls back as absent', () => {
    const { schema, restore } = toStrictJsonSchema(
      structuredClone(Type.Intersect([Name, Audit])) as unknown as Node,
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        by: { type: 'string' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['id', 'name', 'by', 'note'],
      additionalProperties: false,
    });
    expect(restore({ id: 'a', name: 'n', by: 'b', note: null })).toEqual({
      id: 'a',
      name: 'n',
      by: 'b',
    });
  });

  const refused: readonly (readonly [string, TSchema, RegExp])[] = [
    [
      'a record with string keys (a map)',
      Type.Object({ map: Type.Record(Type.String(), Type.Number()) }),
      /'patternProperties' at map\.$/,
    ],
    [
      'a tuple',
      Type.Object({ pair: Type.Tuple([Type.String(), Type.Number()]) }),
      /'additionalItems' at pair\.$/,
    ],
    [
      'a cyclic type (TypeBox names it with `$id` and refers to it by that name)',
      Type.Object({
        tree: Type.Cyclic(
          { Node: Type.Object({ label: Type.String(), children: Type.Array(Type.Ref('Node')) }) },
          'Node',
        ),
      }),
      /a '\$ref' that is not a local JSON Pointer \("Node"\) at tree\.$/,
    ],
    [
      'an intersection whose branches give one property two types',
      Type.Intersect([Type.Object({ id: Type.String() }), Type.Object({ id: Type.Number() })]),
      /'allOf' whose branches give the property 'id' different schemas at id\.$/,
    ],
    ['Type.Any()', Type.Object({ anything: Type.Any() }), /at anything\./],
  ];
  for (const [name, schema, message] of refused) {
    it(`refuses ${name} with schema_unsupported, naming the keyword and path`, () => {
      let caught: unknown;
      try {
        toStrictJsonSchema(structuredClone(schema) as Node);
      } catch (error) {
        caught = error;
      }
      expect(AdapterError.isInstance(caught)).toBe(true);
      expect((caught as AdapterError).code).toBe('schema_unsupported');
      expect((caught as Error).message).toMatch(message);
      expect((caught as Error).message.length).toBeLessThan(2000);
    });
  }
});
