import { describe, expect, it } from 'vitest';
import { AdapterError } from '../../adapter-error.ts';
import { strictSchemaProblem } from './strict-schema-problem.ts';
import { toStrictJsonSchema } from './to-strict-json-schema.ts';

const object = (
  properties: Record<string, unknown>,
  required: string[] = [],
  extra: Record<string, unknown> = {},
) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});

describe('toStrictJsonSchema', () => {
  it('requires every property, makes optional ones nullable and closes every object', () => {
    const { schema } = toStrictJsonSchema(
      object(
        {
          id: { type: 'string' },
          note: { type: 'string', description: 'why' },
          kind: { enum: ['a', 'b'] },
          maybe: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
          nested: object({ x: { type: 'integer' } }),
          list: { type: 'array', items: object({ y: { type: 'boolean' } }, ['y']) },
        },
        ['id'],
      ),
    );
    expect(schema).toEqual({
      type: 'object',
      required: ['id', 'note', 'kind', 'maybe', 'nested', 'list'],
      additionalProperties: false,
      properties: {
        id: { type: 'string' },
        note: {
          description: 'why',
          anyOf: [{ type: 'string', description: 'why' }, { type: 'null' }],
        },
        kind: { anyOf: [{ enum: ['a', 'b'] }, { type: 'null' }] },
        maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        nested: {
          anyOf: [
            {
              type: 'object',
              properties: { x: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
              required: ['x'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
        },
        list: {
          anyOf: [
            {
              type: 'array',
              items: {
                type: 'object',
                properties: { y: { type: 'boolean' } },
                required: ['y'],
                additionalProperties: false,
              },
            },
            { type: 'null' },
          ],
        },
      },
    });
  });

  it('reads nulls back as absent only where the field was optional and not nullable', () => {
    const { restore } = toStrictJsonSchema(
      object(
        {
          id: { type: 'string' },
          note: { type: 'string' },
          maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          items: { type: 'array', items: object({ tag: { type: 'string' } }) },
        },
        ['id', 'items'],
      ),
    );
    expect(
      restore({ id: 'a', note: null, maybe: null, items: [{ tag: null }, { tag: 'x' }] }),
    ).toEqual({
      id: 'a',
      maybe: null,
      items: [{}, { tag: 'x' }],
    });
    expect(restore('not an object')).toBe('not an object');
    const restored = restore(JSON.parse('{"id":"a","__proto__":{"polluted":true}}')) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(restored)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses what strict mode cannot express, naming the keyword and path', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'string' }, /root that is not type 'object' at <root>/],
      [
        object({ a: { oneOf: [{ type: 'string' }, { type: 'number' }] } }),
        /'oneOf' whose branches .* at a\./,
      ],
      [
        object({ a: { allOf: [{ type: 'string' }, { type: 'number' }] } }),
        /'allOf' beside a conflicting 'type' at a\./,
      ],
      [
        object({
          a: { allOf: [object({ b: { type: 'string' } }), object({ b: { type: 'number' } })] },
        }),
        /'allOf' whose branches give the property 'b' different schemas at a\.b\./,
      ],
      [
        object({
          a: {
            allOf: [
              object({ b: { type: 'string' } }, [], { additionalProperties: false }),
              object({ c: { type: 'string' } }, ['c']),
            ],
          },
        }),
        /closed branch excludes the required property 'c' at a\.c\./,
      ],
      [
        object({
          a: { allOf: [object({}), object({}, [], { additionalProperties: { type: 'string' } })] },
        }),
        /'additionalProperties' is a schema .* at a\.allOf\[1\]\./,
      ],
      [
        object({ a: { allOf: [object({}), { type: 'string', minLength: 1 }] } }),
        /an 'allOf' branch with 'type' beside object branches at a\.allOf\[1\]\./,
      ],
      [
        object({
          a: {
            allOf: [
              object({}),
              { anyOf: [{ type: 'object' }, { type: 'null' }] },
              { anyOf: [{ type: 'object' }, { type: 'null' }], description: 'other' },
            ],
          },
        }),
        /an object 'allOf' with a second union branch at a\.allOf\[2\]\./,
      ],
      [
        // Paths name the branch as written, `true` and duplicate branches counted.
        object({ a: { allOf: [true, object({}), object({}), { type: 'string' }] } }),
        /an 'allOf' branch with 'type' beside object branches at a\.allOf\[3\]\./,
      ],
      [object({ a: object({}, [], { patternProperties: {} }) }), /'patternProperties' at a\./],
      [
        object({ a: object({}, [], { additionalProperties: { type: 'string' } }) }),
        /'additionalProperties' other than false .* at a\./,
      ],
      [object({ a: {} }), /a schema without a 'type' .* at a\./],
      [object({ a: { type: 'array', items: [{ type: 'string' }] } }), /tuple 'items'.* at a\./],
      [
        object({ a: { type: 'array', uniqueItems: true, items: { type: 'string' } } }),
        /'uniqueItems' at a\./,
      ],
    ];
    for (const [schema, message] of cases) {
      let caught: unknown;
      try {
        toStrictJsonSchema(schema);
      } catch (error) {
        caught = error;
      }
      expect(AdapterError.isInstance(caught), String(message)).toBe(true);
      expect((caught as AdapterError).code).toBe('schema_unsupported');
      expect((caught as Error).message).toMatch(message);
    }
  });

  it('keeps examples as a copy of their JSON data, and refuses examples that are not JSON', () => {
    const examples = [{ at: '2026-11-26', tags: ['a'], gone: undefined }, 3, null];
    const { schema } = toStrictJsonSchema({
      type: 'object',
      properties: { when: { type: 'object', properties: { at: { type: 'string' } }, examples } },
      required: ['when'],
    });
    const when = (schema['properties'] as Record<string, Record<string, unknown>>)['when'];
    const kept = when?.['examples'] as unknown[];
    expect(kept).toEqual([{ at: '2026-11-26', tags: ['a'] }, 3, null]);
    expect(kept).not.toBe(examples);
    expect(Object.isFrozen(kept[0])).toBe(true);
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    for (const bad of [[() => 1], [1n], [Number.NaN], [new Date(0)], [Symbol('s')], cyclic]) {
      expect(() =>
        toStrictJsonSchema({
          type: 'object',
          properties: { when: { type: 'string', examples: bad } },
          required: ['when'],
        }),
      ).toThrow(/^OpenAI strict mode cannot express '.*examples.* at when\.$/);
    }
  });

  it('treats a keyword, property or definition whose value is undefined as absent', () => {
    const { schema } = toStrictJsonSchema({
      type: 'object',
      properties: { a: { type: 'string', not: undefined }, gone: undefined },
      required: ['a'],
      $defs: undefined,
      definitions: { Unused: undefined },
      additionalProperties: undefined,
    });
    // The definitions map stays (as openai-node keeps it), without its undefined entry.
    expect(schema).toEqual(
      object({ a: { type: 'string' } }, ['a'], { additionalProperties: false, definitions: {} }),
    );
    expect(() =>
      toStrictJsonSchema({ type: 'object', properties: { gone: undefined }, required: ['gone'] }),
    ).toThrow(/'required' naming 'gone', which 'properties' does not define at gone/);
  });

  it('refuses a schema over the property limit before walking it (40,000 properties)', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 40_000; i++) properties[`p${i}`] = { type: 'string' };
    expect(() => toStrictJsonSchema(object(properties))).toThrow(
      /more than 5000 object properties at <root>/,
    );
  });

  it('refuses more definition names than the character limit before converting any entry', () => {
    const $defs: Record<string, unknown> = { first: { not: {} } };
    for (let i = 0; i < 13_000; i++) $defs[`definition${i}`] = { type: 'string' };
    // Every entry is converted (as openai-node converts them), so the names are counted first:
    // the refusal names the limit, not the unsupported first entry.
    expect(() => toStrictJsonSchema(object({}, [], { $defs }))).toThrow(
      /more than 120000 characters of definition names at \$defs\.$/,
    );
    expect(() => toStrictJsonSchema(object({}, [], { $defs: { first: { not: {} } } }))).toThrow(
      /'not' at \$defs\.first\.$/,
    );
  });

  it('keeps $defs and definitions of one name apart, and escapes names in references', () => {
    const { schema, restore } = toStrictJsonSchema({
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/Item' },
        b: { $ref: '#/definitions/Item' },
        c: { $ref: '#/$defs/a~1b%20c~0' },
      },
      required: ['a', 'b', 'c'],
      $defs: { Item: { type: 'string' }, 'a/b c~': object({ n: { type: 'number' } }) },
      definitions: { Item: { type: 'number' } },
    });
    // Each map stays where it is, and each reference as it was written.
    expect(schema['properties']).toEqual({
      a: { $ref: '#/$defs/Item' },
      b: { $ref: '#/definitions/Item' },
      c: { $ref: '#/$defs/a~1b%20c~0' },
    });
    expect(schema['definitions']).toEqual({ Item: { type: 'number' } });
    expect(schema['$defs']).toEqual({
      Item: { type: 'string' },
      'a/b c~': object({ n: { anyOf: [{ type: 'number' }, { type: 'null' }] } }, ['n'], {
        additionalProperties: false,
      }),
    });
    expect(restore({ a: 'x', b: 1, c: { n: null } })).toEqual({ a: 'x', b: 1, c: {} });
  });

  it('points every $ref at the root or a root definition, hoisting any other target', () => {
    const { schema, restore } = toStrictJsonSchema({
      type: 'object',
      properties: {
        source: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        alias: { $ref: '#/properties/source/anyOf/0' },
        nested: { $ref: '#/$defs/Input/$defs/Nested' },
        encoded: { $ref: '#/$defs/Input%2Fproperties%2Fnote' },
      },
      required: ['source', 'alias', 'nested'],
      $defs: {
        // A root definition with the name a hoisted target would take first: it keeps it.
        __openai_strict_ref_0: { type: 'boolean' },
        Input: {
          type: 'object',
          $defs: { Nested: object({ n: { type: 'number' } }) },
          properties: { note: { type: 'string' } },
        },
      },
    });
    expect(schema['properties']).toEqual({
      source: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      alias: { $ref: '#/$defs/__openai_strict_ref_1' },
      nested: { $ref: '#/$defs/__openai_strict_ref_2' },
      encoded: {
        anyOf: [{ $ref: '#/$defs/__openai_strict_ref_3' }, { type: 'null' }],
      },
    });
    const defs = schema['$defs'] as Record<string, unknown>;
    expect(defs['__openai_strict_ref_0']).toEqual({ type: 'boolean' });
    expect(defs['__openai_strict_ref_1']).toEqual({ type: 'string' });
    expect(defs['__openai_strict_ref_3']).toEqual({ type: 'string' });
    // Nested definitions maps are left out: nothing refers to them.
    expect(defs['Input']).not.toHaveProperty('$defs');
    expect(restore({ source: 'a', alias: 'b', nested: { n: null }, encoded: null })).toEqual({
      source: 'a',
      alias: 'b',
      nested: {},
    });
  });

  it('checks that a $ref points at the root or a root definition, as OpenAI resolves them', () => {
    const closed = (properties: Record<string, unknown>, extra = {}) => ({
      ...object(properties, Object.keys(properties), { additionalProperties: false }),
      ...extra,
    });
    expect(
      strictSchemaProblem(closed({ a: { $ref: '#/$defs/Input' }, b: { $ref: '#' } }, {})),
    ).toEqual({
      path: 'a',
      message: "a '$ref' that reaches no schema of this one (#/$defs/Input)",
    });
    const input = {
      Input: { ...closed({ x: { type: 'string' } }), $defs: { Nested: { type: 'string' } } },
    };
    expect(strictSchemaProblem(closed({ a: { $ref: '#/$defs/Input' } }, { $defs: input }))).toEqual(
      { path: '$defs.Input', message: "'$defs' below the root" },
    );
    expect(
      strictSchemaProblem(
        closed(
          { a: { $ref: '#/$defs/Input/properties/x' } },
          {
            $defs: { Input: closed({ x: { type: 'string' } }) },
          },
        ),
      ),
    ).toEqual({
      path: 'a',
      message: "a '$ref' to a place that is not a root definition (#/$defs/Input/properties/x)",
    });
    expect(
      strictSchemaProblem(closed({ a: { $ref: '#/properties/b' }, b: { type: 'string' } })),
    ).toEqual({
      path: 'a',
      message: "a '$ref' to a place that is not a root definition (#/properties/b)",
    });
  });

  it('merges an allOf beside a union into each branch, and restores through the branch', () => {
    const { schema, restore } = toStrictJsonSchema(
      object(
        {
          v: {
            allOf: [
              object({ id: { type: 'string' } }, ['id']),
              {
                oneOf: [
                  object({ kind: { const: 'a' }, x: { type: 'string' } }, ['kind']),
                  object({ kind: { const: 'b' } }, ['kind']),
                ],
              },
            ],
          },
        },
        ['v'],
      ),
    );
    expect((schema['properties'] as Record<string, unknown>)['v']).toEqual({
      anyOf: [
        object(
          {
            id: { type: 'string' },
            kind: { const: 'a' },
            x: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          },
          ['id', 'kind', 'x'],
          {
            additionalProperties: false,
          },
        ),
        object({ id: { type: 'string' }, kind: { const: 'b' } }, ['id', 'kind'], {
          additionalProperties: false,
        }),
      ],
    });
    expect(restore({ v: { id: '1', kind: 'a', x: null } })).toEqual({ v: { id: '1', kind: 'a' } });
  });

  it('keeps a refusal under 2,000 characters, however long the names in it', () => {
    const long = 'k'.repeat(5_000);
    let caught: unknown;
    try {
      toStrictJsonSchema(object({ [long]: object({ [long]: { type: 'string', [long]: 1 } }) }));
    } catch (error) {
      caught = error;
    }
    expect(AdapterError.isInstance(caught)).toBe(true);
    expect((caught as Error).message.length).toBeLessThan(2_000);
  });
});
