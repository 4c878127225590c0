// Cases ported from the peers' own strict-schema suites, each named after its origin:
//   openai-node tests/lib/transform.test.ts and tests/lib/transform-branches.test.ts
//     (openai/lib/transform `toStrictJsonSchema`), at 7b7d6ca7
//   openai-agents-js packages/agents-core/test/utils/strictToolSchema.test.ts, at 6d0c61a5
// The inputs are theirs; the expectations are plankit's rules (optional fields become nullable
// and are read back as absent; what cannot be expressed exactly is refused with
// `schema_unsupported` naming the keyword and path). Where plankit differs, the test name says
// so in parentheses, and docs/adapters.md ("Strict schemas: where plankit differs from the
// peers") gives the reason.
//
// How agreement is counted: testing/strict-schema-peer-cases.ts lists every case of the three
// peer files (`.each` rows expanded) with plankit's answer, `exact` or a documented
// difference, and the ported test that covers it; the last block below checks the totals,
// that docs/adapters.md reports the same numbers and table, and that every comparable case
// has its ported test here.
import { readFileSync } from 'node:fs';
import { describe, expect, it as vitestIt } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../../adapter-error.ts';
import { resolvePointer } from './json-pointer.ts';
import { strictSchemaProblem } from './strict-schema-problem.ts';
import {
  PEER_FILES,
  STRICT_SCHEMA_DIFFERENCES,
  STRICT_SCHEMA_PEER_CASES,
  type StrictSchemaDifference,
} from './testing/strict-schema-peer-cases.ts';
import { toStrictJsonSchema } from './to-strict-json-schema.ts';

const NODE = 'openai-node tests/lib/transform.test.ts';
const AGENTS = 'openai-agents-js packages/agents-core/test/utils/strictToolSchema.test.ts';

type Schema = Record<string, unknown>;

// A converted schema without its definitions maps, where a test is about the root.
function rootOf(schema: Schema): Schema {
  const { $defs: _defs, definitions: _definitions, ...root } = schema;
  return root;
}

// Every ported test's title, so the last block can check each peer case has its port.
const portedTitles = new Set<string>();
function it(title: string, body: () => void): void {
  portedTitles.add(title);
  vitestIt(title, body);
}

function refusal(schema: unknown): string {
  try {
    toStrictJsonSchema(schema as Schema);
  } catch (error) {
    expect(AdapterError.isInstance(error)).toBe(true);
    expect((error as AdapterError).code).toBe('schema_unsupported');
    return (error as Error).message;
  }
  throw new Error('expected a schema_unsupported refusal');
}

function strict(schema: unknown) {
  const converted = toStrictJsonSchema(schema as Schema);
  expect(strictSchemaProblem(converted.schema)).toBeUndefined();
  return converted;
}

function nested(depth: number): Schema {
  const root: Schema = { type: 'object', properties: {}, required: [] };
  let current = root;
  for (let index = 0; index < depth; index++) {
    const child: Schema = { type: 'object', properties: {}, required: [] };
    (current['properties'] as Schema)['child'] = child;
    current = child;
  }
  return root;
}

function segmentedRefs(segments: number, length: number, optional: boolean): Schema {
  const defs: Schema = { terminal: { type: 'string' } };
  const properties: Schema = {};
  const required: string[] = [];
  let previous = '#/$defs/terminal';
  for (let segment = 0; segment < segments; segment++) {
    for (let index = 0; index < length; index++)
      defs[`segment${segment}_${index}`] = {
        $ref: index + 1 < length ? `#/$defs/segment${segment}_${index + 1}` : previous,
      };
    previous = `#/$defs/segment${segment}_0`;
    properties[`checkpoint${segment}`] = { $ref: previous };
    required.push(`checkpoint${segment}`);
  }
  if (optional) properties['optional'] = { $ref: previous };
  return { type: 'object', properties, required, $defs: defs };
}

function refChain(depth: number): Schema {
  const defs: Schema = {};
  for (let index = 0; index < depth; index++)
    defs[`level${index}`] = { $ref: `#/$defs/level${index + 1}` };
  defs[`level${depth}`] = { type: 'string' };
  return {
    type: 'object',
    properties: { value: { $ref: '#/$defs/level0' } },
    required: ['value'],
    $defs: defs,
  };
}

const nameBranch = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};
const ageBranch = { type: 'object', properties: { age: { type: 'number' } }, required: ['age'] };
const activeBranch = {
  type: 'object',
  properties: { active: { type: 'boolean' } },
  required: ['active'],
};
const nameAndAge = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'number' } },
  required: ['name', 'age'],
  additionalProperties: false,
};
const nameAgeActive = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'number' }, active: { type: 'boolean' } },
  required: ['name', 'age', 'active'],
  additionalProperties: false,
};

describe('ported: openai-node strict transform', () => {
  it(`${NODE}: throws error if root schema is not an object`, () => {
    expect(refusal({ type: 'string' })).toMatch(/root that is not type 'object' at <root>/);
  });

  it(`${NODE}: throws error if root schema has no type`, () => {
    expect(refusal({ properties: {} })).toMatch(/root that is not type 'object' at <root>/);
  });

  it(`${NODE}: normalizes singleton type arrays at root and nested positions`, () => {
    const input = {
      type: ['object'],
      properties: {
        user: {
          type: ['object'],
          properties: { name: { type: ['string'] }, nickname: { type: ['string', 'null'] } },
          required: ['name', 'nickname'],
        },
      },
      required: ['user'],
    };
    expect(strict(input).schema).toEqual({
      type: 'object',
      properties: {
        user: {
          type: 'object',
          properties: { name: { type: 'string' }, nickname: { type: ['string', 'null'] } },
          required: ['name', 'nickname'],
          additionalProperties: false,
        },
      },
      required: ['user'],
      additionalProperties: false,
    });
    expect(input.type).toEqual(['object']);
  });

  it(`${NODE}: inlines a root local object ref while retaining definitions`, () => {
    const input = {
      $ref: '#/$defs/Input',
      $defs: {
        Input: {
          type: 'object',
          properties: { name: { $ref: '#/$defs/Name' } },
          required: ['name'],
        },
        Name: { type: 'string' },
      },
    };
    const closed = {
      type: 'object',
      properties: { name: { $ref: '#/$defs/Name' } },
      required: ['name'],
      additionalProperties: false,
    };
    expect(strict(input).schema).toEqual({
      ...closed,
      $defs: { Input: closed, Name: { type: 'string' } },
    });
    expect(input).not.toHaveProperty('type');
  });

  it(`${NODE}: follows a root local ref chain before validating the object type`, () => {
    const input = {
      $ref: '#/$defs/A',
      $defs: {
        A: { $ref: '#/$defs/B' },
        B: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    };
    const closed = {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    };
    expect(strict(input).schema).toEqual({
      ...closed,
      $defs: { A: { $ref: '#/$defs/B' }, B: closed },
    });
  });

  it(`${NODE}: rejects cyclic root local ref chains`, () => {
    const input = {
      $ref: '#/$defs/A',
      $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } },
    };
    expect(refusal(input)).toMatch(/cyclic '\$ref' to 'A' at <root>/);
  });

  it(`${NODE}: inlines root local ref chains exposed by singleton root allOf`, () => {
    const input = {
      allOf: [{ $ref: '#/$defs/A' }],
      $defs: {
        A: { $ref: '#/$defs/Input' },
        Input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    };
    expect(strict(input).schema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
      additionalProperties: false,
    });
  });

  it(`${NODE}: rejects alternating root ref and allOf cycles`, () => {
    expect(
      refusal({ allOf: [{ $ref: '#/$defs/A' }], $defs: { A: { allOf: [{ $ref: '#/$defs/A' }] } } }),
    ).toMatch(/cyclic '\$ref'/);
  });

  it(`${NODE}: rejects missing and external targets in root local ref chains`, () => {
    expect(refusal({ $ref: '#/$defs/A', $defs: { A: { $ref: '#/$defs/Missing' } } })).toMatch(
      /missing definition "Missing"/,
    );
    expect(
      refusal({
        $ref: '#/$defs/A',
        $defs: { A: { $ref: 'https://example.com/schema.json#/$defs/Input' } },
      }),
    ).toMatch(/'\$ref' that is not a local JSON Pointer/);
  });

  it(`${NODE}: reports the root path for invalid root ref values and boolean targets`, () => {
    expect(refusal({ $ref: 1 })).toMatch(/'\$ref' that is not a string at <root>/);
    expect(refusal({ $ref: '#/$defs/False', $defs: { False: false } })).toMatch(
      /boolean schema 'false' at <root>/,
    );
  });

  it(`${NODE}: normalizes a single root allOf object branch before validating the type`, () => {
    expect(
      strict({
        allOf: [{ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }],
      }).schema,
    ).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it(`${NODE}: merges compatible root allOf object branches before validating the type`, () => {
    expect(strict({ allOf: [nameBranch, ageBranch] }).schema).toEqual(nameAndAge);
  });

  it(`${NODE}: normalizes nested root allOf variants before validating the type`, () => {
    expect(strict({ allOf: [{ allOf: [nameBranch, ageBranch] }, activeBranch] }).schema).toEqual(
      nameAgeActive,
    );
  });

  it(`${NODE}: preserves root dialect and base metadata while merging root allOf branches`, () => {
    expect(
      strict({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'https://example.com/input.json',
        allOf: [nameBranch, ageBranch],
      }).schema,
    ).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://example.com/input.json',
      ...nameAndAge,
    });
  });

  it(`${NODE}: still rejects root allOf object branches that cannot be merged exactly`, () => {
    expect(
      refusal({
        allOf: [
          { type: 'object', properties: { shared: { type: 'string' } }, required: ['shared'] },
          { type: 'object', properties: { shared: { type: 'number' } }, required: ['shared'] },
        ],
      }),
    ).toMatch(/'allOf' whose branches give the property 'shared' different schemas at shared\.$/);
  });

  it(`${NODE}: removes neutral root allOf branches before inlining an object branch`, () => {
    expect(
      strict({
        allOf: [
          true,
          { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        ],
      }).schema,
    ).toMatchObject({ type: 'object', required: ['name'] });
  });

  it(`${NODE}: rejects nested IDs before root allOf normalization can rebind branch definitions`, () => {
    expect(
      refusal({
        type: 'object',
        properties: { value: { $id: 'branch.json', type: 'string' } },
        required: ['value'],
      }),
    ).toMatch(/nested '\$id' .* at value/);
  });

  it(`${NODE}: adds additionalProperties: false to object schemas and nested objects`, () => {
    const { schema } = strict({
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] } },
      required: ['a'],
    });
    expect(schema).toMatchObject({
      additionalProperties: false,
      properties: { a: { additionalProperties: false } },
    });
  });

  it(`${NODE}: rejects additionalProperties: true`, () => {
    expect(refusal({ type: 'object', properties: {}, additionalProperties: true })).toMatch(
      /'additionalProperties' other than false .* at <root>/,
    );
  });

  it(`${NODE}: rejects schema-valued additionalProperties`, () => {
    expect(
      refusal({
        type: 'object',
        properties: { map: { type: 'object', additionalProperties: { type: 'string' } } },
        required: ['map'],
      }),
    ).toMatch(/'additionalProperties' other than false .* at map/);
  });

  it(`${NODE}: adds additionalProperties: false to nullable object type arrays`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: {
        user: { type: ['object', 'null'], properties: { name: { type: 'string' } } },
      },
      required: ['user'],
    });
    expect((schema['properties'] as Schema)['user']).toEqual({
      type: ['object', 'null'],
      properties: { name: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['name'],
      additionalProperties: false,
    });
    expect(restore({ user: { name: null } })).toEqual({ user: {} });
    expect(restore({ user: null })).toEqual({ user: null });
  });

  it(`${NODE}: adds additionalProperties: false to implicit object schemas`, () => {
    expect(
      strict({
        type: 'object',
        properties: { meta: { properties: { id: { type: 'string' } }, required: ['id'] } },
        required: ['meta'],
      }).schema,
    ).toMatchObject({ properties: { meta: { type: 'object', additionalProperties: false } } });
  });

  it(`${NODE}: makes all properties required when nullable`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: {
        name: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        age: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      },
    });
    expect(schema['required']).toEqual(['name', 'age']);
    expect(schema['properties']).toEqual({
      name: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      age: { anyOf: [{ type: 'number' }, { type: 'null' }] },
    });
    // Already nullable: the model's null is a real value, kept.
    expect(restore({ name: null, age: 3 })).toEqual({ name: null, age: 3 });
  });

  it(`${NODE}: makes properties with null-valued literals required`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: {
        constNull: { const: null },
        enumNull: { enum: [null] },
        nestedConstNull: { anyOf: [{ type: 'string' }, { const: null }] },
        nestedEnumNull: { anyOf: [{ type: 'string' }, { enum: [null] }] },
      },
    });
    expect(schema['required']).toEqual([
      'constNull',
      'enumNull',
      'nestedConstNull',
      'nestedEnumNull',
    ]);
    expect((schema['properties'] as Schema)['enumNull']).toEqual({ enum: [null] });
    const nulls = { constNull: null, enumNull: null, nestedConstNull: null, nestedEnumNull: null };
    expect(restore(nulls)).toEqual(nulls);
  });

  it(`${NODE}: only makes literal-constrained properties required when null satisfies the whole schema`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: {
        validConstNull: { type: ['string', 'null'], const: null },
        validEnumNull: { type: ['string', 'null'], enum: ['ready', null] },
        invalidEnumNull: { type: 'string', enum: ['ready', null] },
      },
    });
    const properties = schema['properties'] as Schema;
    expect(properties['validEnumNull']).toEqual({
      type: ['string', 'null'],
      enum: ['ready', null],
    });
    // `type: 'string'` excludes null, so the optional field gets a null branch and null means absent.
    expect(properties['invalidEnumNull']).toEqual({
      anyOf: [{ type: 'string', enum: ['ready', null] }, { type: 'null' }],
    });
    expect(restore({ validConstNull: null, validEnumNull: null, invalidEnumNull: null })).toEqual({
      validConstNull: null,
      validEnumNull: null,
    });
  });

  it(`${NODE}: rejects unresolved local refs and external refs before returning a strict schema`, () => {
    expect(
      refusal({ type: 'object', properties: { a: { $ref: '#/$defs/Missing' } }, required: ['a'] }),
    ).toMatch(/missing definition "Missing" at a/);
    expect(
      refusal({
        type: 'object',
        properties: { a: { $ref: 'other.json#/$defs/A' } },
        required: ['a'],
      }),
    ).toMatch(/not a local JSON Pointer.* at a/);
  });

  it(`${NODE}: rejects Draft 7 validation siblings on $ref properties (also without a conflict)`, () => {
    const base = { type: 'object', $defs: { Text: { type: 'string' } } };
    // Draft 7 ignores `minLength` here and later drafts apply it: refused, as openai-node does.
    expect(
      refusal({
        ...base,
        properties: { value: { $ref: '#/$defs/Text', minLength: 2 } },
        required: ['value'],
      }),
    ).toMatch(/'\$ref' beside 'minLength' \(keywords Draft 7 ignores\) at value\.$/);
    // Annotations beside a `$ref` are kept apart from it.
    const { schema } = strict({
      ...base,
      properties: { value: { $ref: '#/$defs/Text', description: 'Some text' } },
      required: ['value'],
    });
    expect((schema['properties'] as Schema)['value']).toEqual({
      description: 'Some text',
      $ref: '#/$defs/Text',
    });
  });

  it(`${NODE}: rejects required properties missing from properties`, () => {
    expect(
      refusal({
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name', 'age'],
      }),
    ).toMatch(/'required' naming 'age', which 'properties' does not define at age/);
  });

  it(`${NODE}: throws error for optional properties without nullable (plankit makes them nullable)`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: { name: { type: 'string' } },
    });
    expect(schema['properties']).toEqual({
      name: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
    expect(restore({ name: null })).toEqual({});
  });

  it(`${NODE}: processes array items`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: {
        users: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
      required: ['users'],
    });
    expect((schema['properties'] as Schema)['users']).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
        required: ['name'],
        additionalProperties: false,
      },
    });
    expect(restore({ users: [{ name: null }, { name: 'a' }] })).toEqual({
      users: [{}, { name: 'a' }],
    });
  });

  it(`${NODE}: rejects array schemas without items before returning a strict schema`, () => {
    expect(
      refusal({ type: 'object', properties: { a: { type: 'array' } }, required: ['a'] }),
    ).toMatch(/array without 'items' at a/);
  });

  it(`${NODE}: rejects tuple-form items before returning a strict schema`, () => {
    expect(
      refusal({
        type: 'object',
        properties: { a: { type: 'array', items: [{ type: 'string' }] } },
        required: ['a'],
      }),
    ).toMatch(/tuple 'items' .* at a/);
  });

  it(`${NODE}: rejects additionalItems before returning a strict schema`, () => {
    expect(
      refusal({
        type: 'object',
        properties: {
          tuple: {
            type: 'array',
            items: { type: 'string' },
            additionalItems: {
              type: 'object',
              properties: { name: { type: 'string' } },
              required: ['name'],
            },
          },
        },
        required: ['tuple'],
      }),
    ).toMatch(/'additionalItems' at tuple\.$/);
  });

  it(`${NODE}: rejects patternProperties, uniqueItems, minProperties and maxProperties schemas`, () => {
    for (const keyword of ['patternProperties', 'uniqueItems', 'minProperties', 'maxProperties']) {
      const property =
        keyword === 'uniqueItems'
          ? { type: 'array', items: { type: 'string' }, uniqueItems: true }
          : { type: 'object', properties: {}, [keyword]: keyword === 'patternProperties' ? {} : 1 };
      expect(refusal({ type: 'object', properties: { a: property }, required: ['a'] })).toMatch(
        new RegExp(`'${keyword}' at a\\.`),
      );
    }
  });

  it(`${NODE}: processes anyOf variants`, () => {
    const { schema } = strict({
      type: 'object',
      properties: {
        value: {
          anyOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { type: 'string' },
          ],
        },
      },
      required: ['value'],
    });
    expect((schema['properties'] as Schema)['value']).toEqual({
      anyOf: [
        {
          type: 'object',
          properties: { a: { type: 'string' } },
          required: ['a'],
          additionalProperties: false,
        },
        { type: 'string' },
      ],
    });
  });

  it(`${NODE}: removes false anyOf branches while retaining all-false failures`, () => {
    expect(
      strict({
        type: 'object',
        properties: { value: { anyOf: [false, { type: 'string' }] } },
        required: ['value'],
      }).schema['properties'],
    ).toEqual({ value: { anyOf: [{ type: 'string' }] } });
    expect(
      refusal({
        type: 'object',
        properties: { value: { anyOf: [false, false] } },
        required: ['value'],
      }),
    ).toMatch(/'anyOf' with no branch .* at value/);
  });

  it(`${NODE}: removes empty object keywords from an untyped anyOf wrapper`, () => {
    expect(
      strict({
        type: 'object',
        properties: {
          value: { properties: {}, required: [], anyOf: [{ type: 'string' }, { type: 'number' }] },
        },
        required: ['value'],
      }).schema['properties'],
    ).toEqual({ value: { anyOf: [{ type: 'string' }, { type: 'number' }] } });
  });

  it(`${NODE}: rejects object anyOf wrappers whose own constraints cannot be preserved`, () => {
    const branch = (kind: string, extra: Schema) => ({
      properties: { kind: { type: 'string', const: kind }, ...extra },
      required: ['kind'],
    });
    const wrapper = (properties: Schema) => ({
      type: 'object',
      properties: {
        value: {
          type: 'object',
          ...properties,
          anyOf: [
            branch('foo', { foo: { type: 'string' } }),
            branch('bar', { bar: { type: 'number' } }),
          ],
        },
      },
      required: ['value'],
    });
    // Object keywords on the wrapper would bind every branch: refused, as openai-node does.
    for (const own of [{ properties: { kind: { type: 'string' } } }, { required: ['kind'] }])
      expect(refusal(wrapper(own))).toMatch(
        /'anyOf' inside a wrapper of object keywords that would bind every branch at value\.$/,
      );
  });

  it(`${NODE}: inlines single allOf variant`, () => {
    const { schema } = strict({
      type: 'object',
      properties: {
        user: {
          allOf: [{ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }],
        },
      },
      required: ['user'],
    });
    expect((schema['properties'] as Schema)['user']).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it(`${NODE}: rejects a false singleton allOf branch`, () => {
    expect(
      refusal({ type: 'object', properties: { a: { allOf: [false] } }, required: ['a'] }),
    ).toMatch(/'allOf' with a 'false' branch .* at a/);
  });

  it(`${NODE}: rejects a single allOf variant with sibling constraints (plankit merges non-conflicting ones)`, () => {
    expect(
      strict({
        type: 'object',
        properties: { a: { allOf: [{ type: 'string' }], minLength: 2 } },
        required: ['a'],
      }).schema['properties'],
    ).toEqual({ a: { type: 'string', minLength: 2 } });
    expect(
      refusal({
        type: 'object',
        properties: { a: { allOf: [{ type: 'string' }], type: 'number' } },
        required: ['a'],
      }),
    ).toMatch(/'allOf' beside a conflicting 'type' at a/);
  });

  it(`${NODE}: retains annotation-only recursive refs without expanding them`, () => {
    const { schema, restore } = strict({
      type: 'object',
      $defs: {
        Node: {
          type: 'object',
          properties: {
            value: { type: 'string' },
            next: { $ref: '#/$defs/Node', description: 'The next node' },
          },
          required: ['value'],
        },
      },
      properties: { root: { $ref: '#/$defs/Node', description: 'The root node' } },
      required: ['root'],
    });
    expect(schema).toMatchObject({
      $defs: {
        Node: {
          additionalProperties: false,
          properties: {
            next: {
              description: 'The next node',
              anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }],
            },
          },
        },
      },
      properties: { root: { $ref: '#/$defs/Node', description: 'The root node' } },
    });
    expect(restore({ root: { value: 'a', next: { value: 'b', next: null } } })).toEqual({
      root: { value: 'a', next: { value: 'b' } },
    });
  });

  it(`${NODE}: processes definitions`, () => {
    const { schema } = strict({
      type: 'object',
      properties: { user: { $ref: '#/definitions/User' } },
      required: ['user'],
      definitions: {
        User: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    });
    // `definitions` stay where they are, as openai-node keeps them: only objects are closed.
    expect(schema).toEqual({
      type: 'object',
      properties: { user: { $ref: '#/definitions/User' } },
      required: ['user'],
      additionalProperties: false,
      definitions: {
        User: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    });
  });

  // The 26 keywords of the peer's `unsupportedKeywords` list.
  const unsupportedKeywords = [
    'allOf',
    'contains',
    'contentEncoding',
    'contentMediaType',
    'contentSchema',
    'dependentRequired',
    'dependentSchemas',
    'dependencies',
    '$dynamicAnchor',
    '$dynamicRef',
    '$recursiveAnchor',
    '$recursiveRef',
    'else',
    'if',
    'maxContains',
    'maxProperties',
    'minContains',
    'minProperties',
    'not',
    'patternProperties',
    'prefixItems',
    'propertyNames',
    'then',
    'unevaluatedItems',
    'unevaluatedProperties',
    'uniqueItems',
  ];

  it(`${NODE}: omits undefined unsupported placeholders (all 26 keywords)`, () => {
    for (const keyword of unsupportedKeywords) {
      const { schema } = strict({
        type: 'object',
        properties: { value: { type: 'string', [keyword]: undefined } },
        required: ['value'],
      });
      expect(schema['properties']).toEqual({ value: { type: 'string' } });
      expect(JSON.stringify(schema)).not.toContain(`"${keyword}"`);
    }
  });

  it(`${NODE}: still rejects defined unsupported placeholders (allOf: [false] refused as accepting nothing)`, () => {
    for (const keyword of unsupportedKeywords) {
      const value = keyword === 'allOf' ? [false] : false;
      const message = refusal({
        type: 'object',
        properties: { value: { type: 'string', [keyword]: value } },
        required: ['value'],
      });
      expect(message).toMatch(/ at value\.$/);
      if (keyword !== 'allOf') expect(message).toContain(`'${keyword}'`);
    }
  });

  it(`${NODE}: handles deeply nested schemas`, () => {
    expect(strict(nested(2)).schema).toMatchObject({
      additionalProperties: false,
      properties: { child: { anyOf: [{ additionalProperties: false }, { type: 'null' }] } },
    });
  });
});

describe('ported: openai-node object allOf merging', () => {
  const wrap = (value: unknown) => ({
    type: 'object',
    properties: { value },
    required: ['value'],
  });
  const valueSchema = (schema: unknown) =>
    (strict(schema).schema['properties'] as Schema)['value'] as Schema;

  it(`${NODE}: merges compatible object allOf variants before closing them`, () => {
    expect(strict(wrap({ allOf: [nameBranch, ageBranch] })).schema).toEqual({
      type: 'object',
      properties: { value: nameAndAge },
      required: ['value'],
      additionalProperties: false,
    });
  });

  it(`${NODE}: removes neutral true branches before merging object allOf variants`, () => {
    expect(valueSchema(wrap({ ...nameBranch, allOf: [true, ageBranch] }))).toEqual(nameAndAge);
  });

  for (const keyword of ['$defs', 'definitions']) {
    it(`${NODE}: discards neutral ${keyword}-only allOf branches after preserving their refs`, () => {
      const { schema } = strict(
        wrap({
          allOf: [
            { [keyword]: { Name: { type: 'string' } } },
            {
              type: 'object',
              properties: { name: { $ref: `#/properties/value/allOf/0/${keyword}/Name` } },
              required: ['name'],
            },
          ],
        }),
      );
      expect(schema).toMatchObject({
        $defs: { __openai_strict_allOf_ref_0: { type: 'string' } },
        properties: {
          value: {
            type: 'object',
            properties: { name: { $ref: '#/$defs/__openai_strict_allOf_ref_0' } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      });
      expect(JSON.stringify(schema)).not.toContain('"allOf"');
    });

    it(`${NODE}: keeps malformed ${keyword}-only allOf branches fail closed`, () => {
      expect(refusal(wrap({ allOf: [{ [keyword]: false }, nameBranch] }))).toMatch(
        /'\$?(defs|definitions)' that is not an object at value\.allOf\[0\]\./,
      );
    });
  }

  it(`${NODE}: normalizes nested object allOf variants before merging their parent`, () => {
    expect(
      valueSchema(wrap({ allOf: [{ allOf: [nameBranch, ageBranch] }, activeBranch] })),
    ).toEqual(nameAgeActive);
  });

  it(`${NODE}: normalizes ref-resolved allOf targets before earlier consumers`, () => {
    for (const consumerFirst of [true, false]) {
      const consumer = { type: 'object', allOf: [{ $ref: '#/properties/target' }, activeBranch] };
      const target = { allOf: [nameBranch, ageBranch] };
      const { schema } = strict({
        type: 'object',
        properties: consumerFirst ? { consumer, target } : { target, consumer },
        required: ['consumer', 'target'],
      });
      expect((schema['properties'] as Schema)['consumer']).toEqual(nameAgeActive);
      expect(JSON.stringify(schema)).not.toContain('"allOf"');
    }
  });

  it(`${NODE}: merges compatible object allOf variants through local ref chains`, () => {
    expect(
      valueSchema({
        ...wrap({
          type: 'object',
          allOf: [
            { $ref: '#/$defs/NameAlias', $comment: 'Generated alias' },
            { $ref: '#/$defs/Age' },
          ],
        }),
        $defs: {
          Name: nameBranch,
          NameAlias: { $ref: '#/$defs/Name', description: 'Name fields' },
          Age: ageBranch,
        },
      }),
    ).toEqual({ $comment: 'Generated alias', description: 'Name fields', ...nameAndAge });
  });

  for (const keyword of ['$defs', 'definitions']) {
    it(`${NODE}: merges ref-backed object allOf variants with scoped ${keyword} maps (the nested target hoisted to $defs)`, () => {
      const { schema } = strict({
        type: 'object',
        [keyword]: {
          Name: {
            type: 'object',
            [keyword]: { Value: { type: 'string' } },
            properties: { name: { $ref: `#/${keyword}/Name/${keyword}/Value` } },
            required: ['name'],
          },
          Age: ageBranch,
        },
        properties: {
          value: {
            type: 'object',
            allOf: [{ $ref: `#/${keyword}/Name` }, { $ref: `#/${keyword}/Age` }],
          },
        },
        required: ['value'],
      });
      expect(schema).toMatchObject({
        type: 'object',
        properties: {
          value: {
            type: 'object',
            properties: {
              name: { $ref: '#/$defs/__openai_strict_ref_0' },
              age: { type: 'number' },
            },
            required: ['name', 'age'],
            additionalProperties: false,
          },
        },
        required: ['value'],
        additionalProperties: false,
        [keyword]: {
          Name: {
            type: 'object',
            properties: { name: { $ref: '#/$defs/__openai_strict_ref_0' } },
            required: ['name'],
            additionalProperties: false,
          },
          Age: { ...ageBranch, additionalProperties: false },
        },
      });
      expect(schema['$defs']).toMatchObject({ __openai_strict_ref_0: { type: 'string' } });
    });
  }

  it(`${NODE}: merges compatible nullable object allOf variants`, () => {
    const nullable = (branch: Schema) => ({ ...branch, type: ['object', 'null'] });
    const { schema, restore } = strict(
      wrap({ allOf: [nullable(nameBranch), nullable(ageBranch)] }),
    );
    expect((schema['properties'] as Schema)['value']).toEqual({
      ...nameAndAge,
      type: ['object', 'null'],
    });
    expect(restore({ value: null })).toEqual({ value: null });
  });

  it(`${NODE}: intersects closed object allOf property sets and drops excluded optionals`, () => {
    const { schema, restore } = strict(
      wrap({
        allOf: [
          {
            type: 'object',
            properties: { x: { type: 'string' } },
            required: ['x'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { x: { type: 'string' }, y: { type: 'number' } },
            required: ['x'],
            additionalProperties: false,
          },
        ],
      }),
    );
    expect((schema['properties'] as Schema)['value']).toEqual({
      type: 'object',
      properties: { x: { type: 'string' } },
      required: ['x'],
      additionalProperties: false,
    });
    expect(restore({ value: { x: 'a' } })).toEqual({ value: { x: 'a' } });
  });

  it(`${NODE}: rejects closed object allOf intersections that exclude required properties`, () => {
    expect(
      refusal(
        wrap({
          allOf: [
            {
              type: 'object',
              properties: { x: { type: 'string' } },
              required: ['x'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { x: { type: 'string' }, y: { type: 'number' } },
              required: ['x', 'y'],
              additionalProperties: false,
            },
          ],
        }),
      ),
    ).toMatch(/closed branch excludes the required property 'y' at value\.y\./);
  });

  it(`${NODE}: fails closed on cyclic local ref chains in object allOf variants`, () => {
    expect(
      refusal({
        ...wrap({ type: 'object', allOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/Age' }] }),
        $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' }, Age: ageBranch },
      }),
    ).toMatch(/cyclic '\$ref' to 'A' through 'allOf' at value\.allOf\[0\]\./);
  });

  it(`${NODE}: merges object allOf properties that match Object prototype names`, () => {
    const special = Object.fromEntries([
      ['constructor', { type: 'string' }],
      ['toString', { type: 'string' }],
      ['__proto__', { type: 'string' }],
    ]);
    const value = valueSchema(
      wrap({
        allOf: [
          {
            type: 'object',
            properties: special,
            required: ['constructor', 'toString', '__proto__'],
          },
          { type: 'object', properties: { other: { type: 'number' } }, required: ['other'] },
        ],
      }),
    );
    const properties = value['properties'] as Schema;
    expect(Object.keys(properties)).toEqual(['constructor', 'toString', '__proto__', 'other']);
    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toEqual({
      type: 'string',
    });
  });

  it(`${NODE}: merges matching object allOf properties with reordered schema keys`, () => {
    const shared = {
      type: 'object',
      description: 'shared object',
      properties: { name: { type: 'string', description: 'display name' } },
      required: ['name'],
    };
    const reordered = {
      required: ['name'],
      properties: { name: { description: 'display name', type: 'string' } },
      description: 'shared object',
      type: 'object',
    };
    expect(
      valueSchema(
        wrap({
          allOf: [
            { type: 'object', properties: { shared }, required: ['shared'] },
            { required: ['shared'], properties: { shared: reordered }, type: 'object' },
          ],
        }),
      ),
    ).toEqual({
      type: 'object',
      properties: { shared: { ...shared, additionalProperties: false } },
      required: ['shared'],
      additionalProperties: false,
    });
  });

  it(`${NODE}: rejects matching object allOf properties with reordered array values`, () => {
    expect(
      refusal(
        wrap({
          allOf: [
            {
              type: 'object',
              properties: { shared: { type: 'string', enum: ['first', 'second'] } },
              required: ['shared'],
            },
            {
              type: 'object',
              properties: { shared: { enum: ['second', 'first'], type: 'string' } },
              required: ['shared'],
            },
          ],
        }),
      ),
    ).toMatch(
      /'allOf' whose branches give the property 'shared' different schemas at value\.shared\.$/,
    );
  });

  it(`${NODE}: rejects object allOf variants that cannot be merged exactly`, () => {
    expect(
      refusal(
        wrap({
          allOf: [
            { type: 'object', properties: { shared: { type: 'string' } }, required: ['shared'] },
            { type: 'object', properties: { shared: { type: 'number' } }, required: ['shared'] },
          ],
        }),
      ),
    ).toMatch(
      /'allOf' whose branches give the property 'shared' different schemas at value\.shared\.$/,
    );
  });
});

describe('ported: openai-agents-js strictToolSchema', () => {
  it(`${AGENTS}: rejects schemas that exceed the safe container depth`, () => {
    const input = nested(1_000);
    expect(refusal(input)).toMatch(/nested more than 100 levels/);
    expect(input).not.toHaveProperty('additionalProperties');
  });

  it(`${AGENTS}: rejects schemas that exceed the safe local reference depth`, () => {
    const input = refChain(1_000);
    expect(refusal(input)).toMatch(/nested more than 100 levels deep at value\.$/);
    expect((input['properties'] as Schema)['value']).toEqual({ $ref: '#/$defs/level0' });
  });

  it(`${AGENTS}: rejects shared reference suffixes reached beyond the safe depth`, () => {
    const input = segmentedRefs(100, 60, true);
    expect(refusal(input)).toMatch(/nested more than 100 levels deep at checkpoint1\.$/);
    expect((input['properties'] as Schema)['optional']).toEqual({ $ref: '#/$defs/segment99_0' });
  });

  it(`${AGENTS}: rejects required-only shared reference suffixes reached beyond the safe depth`, () => {
    const input = segmentedRefs(2, 60, false);
    const original = structuredClone(input);
    expect(refusal(input)).toMatch(/nested more than 100 levels/);
    expect(input).toEqual(original);
  });

  it(`${AGENTS}: enforces the safe local reference depth boundary`, () => {
    const defs = strict(refChain(97)).schema['$defs'] as Schema;
    // Every alias is kept, as the peers keep it; the chain ends in the one with content.
    expect(defs['level0']).toEqual({ $ref: '#/$defs/level1' });
    expect(defs['level97']).toEqual({ type: 'string' });
    expect(refusal(refChain(98))).toMatch(/nested more than 100 levels deep at value\.$/);
  });

  it(`${AGENTS}: preserves direct root recursion at the safe depth boundary`, () => {
    const accepted = refChain(97);
    (accepted['$defs'] as Schema)['level97'] = { $ref: '#' };
    const { schema } = strict(accepted);
    expect(schema['properties']).toEqual({ value: { $ref: '#/$defs/level0' } });
    expect((schema['$defs'] as Schema)['level97']).toEqual({ $ref: '#' });
    const rejected = refChain(98);
    (rejected['$defs'] as Schema)['level98'] = { $ref: '#' };
    expect(refusal(rejected)).toMatch(/nested more than 100 levels/);
  });

  it(`${AGENTS}: preserves recursive local definitions without mutating the input`, () => {
    const input = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
      additionalProperties: false,
      $defs: {
        node: {
          type: 'object',
          properties: {
            value: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['value', 'children'],
          additionalProperties: false,
        },
      },
    };
    const original = structuredClone(input);
    const { schema } = strict(input);
    expect((schema['properties'] as Schema)['root']).toEqual({ $ref: '#/$defs/node' });
    expect(input).toEqual(original);
  });

  it(`${AGENTS}: enforces the safe depth boundary for recursive components (plankit refuses a cycle of references alone at any length)`, () => {
    // A cycle of bare `$ref`s never reaches a schema: it constrains nothing anyone can name.
    for (const length of [5, 98, 99]) {
      const defs: Schema = {};
      for (let index = 0; index < length; index++)
        defs[`node${index}`] = { $ref: `#/$defs/node${(index + 1) % length}` };
      expect(
        refusal({
          type: 'object',
          properties: { value: { $ref: '#/$defs/node0' } },
          required: ['value'],
          $defs: defs,
        }),
      ).toMatch(/cyclic '\$ref' to 'node0'|nested more than 100 levels/);
    }
  });

  it(`${AGENTS}: rejects over-depth paths leaving recursive components`, () => {
    const defs: Schema = { terminal: { type: 'string' } };
    for (let index = 0; index < 20; index++)
      defs[`tail${index}`] = { $ref: index < 19 ? `#/$defs/tail${index + 1}` : '#/$defs/terminal' };
    for (const prefix of ['a', 'b'])
      for (let index = 0; index < 80; index++)
        defs[`${prefix}${index}`] = {
          $ref: index < 79 ? `#/$defs/${prefix}${index + 1}` : '#/$defs/shared',
        };
    defs['shared'] = { $ref: '#/$defs/recursive' };
    defs['recursive'] = { anyOf: [{ $ref: '#/$defs/a0' }, { $ref: '#/$defs/tail0' }] };
    expect(
      refusal({
        type: 'object',
        properties: {
          alternate: { $ref: '#/$defs/b0' },
          checkpoint: { $ref: '#/$defs/recursive' },
        },
        required: ['checkpoint', 'alternate'],
        additionalProperties: false,
        $defs: defs,
      }),
    ).toMatch(/nested more than 100 levels deep at \$defs\.recursive\.anyOf\[0\]\.$/);
  });

  it(`${AGENTS}: preserves wide shallow recursive definitions without mutating the input`, () => {
    const defs: Schema = {};
    for (let index = 0; index < 100; index++) defs[`node${index}`] = { $ref: '#' };
    const input = {
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
      $defs: defs,
    };
    const original = structuredClone(input);
    const { schema } = strict(input);
    expect((schema['$defs'] as Schema)['node0']).toEqual({ $ref: '#' });
    expect((schema['$defs'] as Schema)['node99']).toEqual({ $ref: '#' });
    expect(input).toEqual(original);
  });

  it(`${AGENTS}: continues to convert reasonably nested schemas without mutation`, () => {
    const input = nested(8);
    expect(strict(input).schema['additionalProperties']).toBe(false);
    expect(input).not.toHaveProperty('additionalProperties');
  });

  it(`${AGENTS}: converts nested JSON schemas into OpenAI strict-compatible schemas (tuple and open root refused)`, () => {
    const input = {
      type: 'object',
      properties: {
        requiredName: { type: 'string', default: null },
        optionalCount: { type: 'number', description: 'Optional count' },
        alreadyNullable: { type: ['string', 'null'] },
        union: {
          anyOf: [
            { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
          ],
        },
        referenced: { $ref: '#/$defs/reference' },
      },
      required: ['requiredName'],
      $defs: {
        reference: {
          type: 'object',
          properties: { optionalRef: { type: 'boolean' } },
          required: [],
        },
      },
      definitions: {
        legacy: {
          type: 'object',
          properties: { optionalLegacy: { type: 'integer' } },
          required: [],
        },
      },
    };
    const { schema, restore } = strict(input);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        requiredName: { type: 'string' },
        optionalCount: {
          description: 'Optional count',
          anyOf: [{ type: 'number', description: 'Optional count' }, { type: 'null' }],
        },
        alreadyNullable: { type: ['string', 'null'] },
        union: {
          anyOf: [
            {
              anyOf: [
                {
                  type: 'object',
                  properties: { value: { type: 'string' } },
                  required: ['value'],
                  additionalProperties: false,
                },
              ],
            },
            { type: 'null' },
          ],
        },
        referenced: { anyOf: [{ $ref: '#/$defs/reference' }, { type: 'null' }] },
      },
      required: ['requiredName', 'optionalCount', 'alreadyNullable', 'union', 'referenced'],
      additionalProperties: false,
      $defs: {
        reference: {
          type: 'object',
          properties: { optionalRef: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } },
          required: ['optionalRef'],
          additionalProperties: false,
        },
      },
      definitions: {
        legacy: {
          type: 'object',
          properties: { optionalLegacy: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
          required: ['optionalLegacy'],
          additionalProperties: false,
        },
      },
    });
    expect(
      restore({
        requiredName: 'n',
        optionalCount: null,
        alreadyNullable: null,
        union: null,
        referenced: { optionalRef: null },
      }),
    ).toEqual({ requiredName: 'n', alreadyNullable: null, referenced: {} });
    expect(refusal({ ...input, additionalProperties: true })).toMatch(
      /'additionalProperties' other than false/,
    );
    expect(
      refusal({
        type: 'object',
        properties: { tuple: { type: 'array', items: [{ type: 'object' }] } },
      }),
    ).toMatch(/tuple 'items' .* at tuple/);
  });

  it(`${AGENTS}: infers closed typeless nested objects without mutating the input`, () => {
    const input = {
      type: 'object',
      properties: {
        nested: {
          properties: { value: { type: 'string', description: 'Nested value' } },
          required: [],
          additionalProperties: false,
        },
      },
      required: ['nested'],
      additionalProperties: false,
    };
    expect(strict(input).schema['properties']).toEqual({
      nested: {
        type: 'object',
        properties: {
          value: {
            description: 'Nested value',
            anyOf: [{ type: 'string', description: 'Nested value' }, { type: 'null' }],
          },
        },
        required: ['value'],
        additionalProperties: false,
      },
    });
    expect(input.properties.nested).not.toHaveProperty('type');
  });

  it(`${AGENTS}: preserves optionality for inferred closed objects`, () => {
    const { restore } = strict({
      type: 'object',
      properties: {
        nested: {
          properties: { value: { type: 'string' } },
          required: [],
          additionalProperties: false,
        },
      },
      required: [],
      additionalProperties: false,
    });
    expect(restore({ nested: null })).toEqual({});
  });

  it(`${AGENTS}: strips strict nulls from optional JSON Schema object and array fields`, () => {
    const { restore } = strict({
      type: 'object',
      properties: {
        required: { type: 'string' },
        optional: { type: 'number' },
        nullableOptional: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        list: {
          type: 'array',
          items: {
            type: 'object',
            properties: { optionalChild: { type: 'boolean' } },
            required: [],
          },
        },
        nullableObject: {
          type: ['object', 'null'],
          properties: { optionalChild: { type: 'boolean' } },
          required: [],
        },
      },
      required: ['required', 'list', 'nullableObject'],
    });
    expect(
      restore({
        required: 'ok',
        optional: null,
        nullableOptional: null,
        list: [{ optionalChild: null }],
        nullableObject: { optionalChild: null },
      }),
    ).toEqual({ required: 'ok', nullableOptional: null, list: [{}], nullableObject: {} });
  });

  for (const [name, key] of [
    ['$defs', '$defs'],
    ['legacy definitions', 'definitions'],
  ] as const) {
    it(`${AGENTS}: strips strict nulls through ${name} references`, () => {
      const { restore } = strict({
        type: 'object',
        properties: { payload: { $ref: `#/${key}/payload` } },
        required: ['payload'],
        [key]: {
          payload: { type: 'object', properties: { note: { type: 'string' } }, required: [] },
        },
      });
      expect(restore({ payload: { note: null } })).toEqual({ payload: {} });
    });
  }

  it(`${AGENTS}: decodes URI and JSON Pointer reference tokens`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: { payload: { $ref: '#/$defs/path%20with~1slash~0tilde' } },
      required: ['payload'],
      $defs: {
        'path with/slash~tilde': {
          type: 'object',
          properties: { note: { type: 'string' } },
          required: [],
        },
      },
    });
    expect(Object.keys(schema['$defs'] as Schema)).toEqual(['path with/slash~tilde']);
    expect(restore({ payload: { note: null } })).toEqual({ payload: {} });
  });

  it(`${AGENTS}: resolves references against original schema pointer paths`, () => {
    const { restore } = strict({
      type: 'object',
      properties: {
        alias: { $ref: '#/$defs/payload/properties/optionalContainer/properties/target' },
      },
      required: ['alias'],
      $defs: {
        payload: {
          type: 'object',
          properties: {
            optionalContainer: {
              type: 'object',
              properties: {
                target: {
                  type: 'object',
                  properties: { child: { type: 'string' } },
                  required: [],
                },
              },
              required: [],
            },
          },
          required: [],
        },
      },
    });
    expect(restore({ alias: { child: null } })).toEqual({ alias: {} });
  });

  it(`${AGENTS}: preserves canonical prepared nodes for reused schema objects`, () => {
    const shared = { type: 'object', properties: { note: { type: 'string' } }, required: [] };
    const { restore } = strict({
      type: 'object',
      properties: { a: { $ref: '#/$defs/a' }, b: { $ref: '#/$defs/b' } },
      required: ['a', 'b'],
      $defs: { a: shared, b: shared },
    });
    expect(restore({ a: { note: null }, b: { note: null } })).toEqual({ a: {}, b: {} });
  });

  it(`${AGENTS}: keeps shared property containers contextual`, () => {
    const sharedProperties = { value: { type: 'string' } };
    const { restore } = strict({
      type: 'object',
      properties: {
        requiredOwner: { type: 'object', properties: sharedProperties, required: ['value'] },
        optionalOwner: { type: 'object', properties: sharedProperties, required: [] },
      },
      required: ['requiredOwner', 'optionalOwner'],
    });
    expect(restore({ requiredOwner: { value: 'x' }, optionalOwner: { value: null } })).toEqual({
      requiredOwner: { value: 'x' },
      optionalOwner: {},
    });
  });

  it(`${AGENTS}: strips strict nulls through recursive root references`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: { note: { type: 'string' }, child: { $ref: '#' } },
      required: [],
    });
    // Strict mode's own root recursion: `#`, not a copy of the root.
    expect((schema['properties'] as Schema)['child']).toEqual({
      anyOf: [{ $ref: '#' }, { type: 'null' }],
    });
    expect(schema['$defs']).toBeUndefined();
    expect(
      restore({ note: null, child: { note: 'x', child: { note: null, child: null } } }),
    ).toEqual({ child: { note: 'x', child: {} } });
  });

  it(`${AGENTS}: preserves null allowed by a referenced schema`, () => {
    const { restore } = strict({
      type: 'object',
      properties: { value: { $ref: '#/$defs/value' } },
      required: [],
      $defs: { value: { type: ['string', 'null'] } },
    });
    expect(restore({ value: null })).toEqual({ value: null });
  });

  it(`${AGENTS}: preserves null allowed through a referenced union branch`, () => {
    const { restore } = strict({
      type: 'object',
      properties: { value: { $ref: '#/$defs/maybeValue' } },
      required: [],
      $defs: {
        maybeValue: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/nullValue' }] },
        nullValue: { type: 'null' },
      },
    });
    expect(restore({ value: null })).toEqual({ value: null });
  });

  it(`${AGENTS}: preserves null allowed by enum-only and const-only schemas`, () => {
    const { restore } = strict({
      type: 'object',
      properties: {
        enumValue: { enum: ['value', null] },
        constValue: { $ref: '#/$defs/nullValue' },
      },
      required: [],
      $defs: { nullValue: { const: null } },
    });
    expect(restore({ enumValue: null, constValue: null })).toEqual({
      enumValue: null,
      constValue: null,
    });
  });

  it(`${AGENTS}: normalizes optional boolean JSON Schema nodes (false dropped, true refused)`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: { directFalse: false, unionFalse: { anyOf: [false, { const: 'value' }] } },
      required: [],
    });
    expect(schema['properties']).toEqual({
      unionFalse: { anyOf: [{ anyOf: [{ const: 'value' }] }, { type: 'null' }] },
    });
    expect(restore({ unionFalse: null })).toEqual({});
    expect(refusal({ type: 'object', properties: { directTrue: true } })).toMatch(
      /accepts anything \('true'\) at directTrue/,
    );
    expect(
      refusal({ type: 'object', properties: { directFalse: false }, required: ['directFalse'] }),
    ).toMatch(/required property whose schema is 'false' at directFalse/);
  });

  const unsupported: [string, unknown][] = [
    ['not', { not: { type: 'null' } }],
    [
      'if',
      // Built from entries: a literal `then` key reads as a thenable to linters.
      Object.fromEntries([
        ['type', 'string'],
        ['if', { type: 'string' }],
        ['then', { const: 'value' }],
      ]),
    ],
    ['patternProperties', { type: 'object', patternProperties: { '^value$': { type: 'string' } } }],
    ['contains', { type: 'array', items: { type: 'string' }, contains: { type: 'string' } }],
    [
      'prefixItems',
      { type: 'array', items: { type: 'string' }, prefixItems: [{ type: 'string' }] },
    ],
  ];
  for (const [keyword, property] of unsupported) {
    it(`${AGENTS}: rejects unsupported strict \`${keyword}\` schemas`, () => {
      expect(refusal({ type: 'object', properties: { value: property }, required: [] })).toMatch(
        new RegExp(`'${keyword}' at value\\.`),
      );
    });
  }

  it(`${AGENTS}: rejects unsupported strict \`oneOf\` schemas (plankit accepts a discriminated oneOf as anyOf)`, () => {
    expect(
      refusal({
        type: 'object',
        properties: { value: { oneOf: [{ type: 'string' }, { type: 'null' }] } },
      }),
    ).toMatch(/'oneOf' whose branches .* at value/);
    const { schema } = strict({
      type: 'object',
      properties: {
        value: {
          oneOf: [
            { type: 'object', properties: { k: { const: 'a' } }, required: ['k'] },
            { type: 'object', properties: { k: { const: 'b' } }, required: ['k'] },
          ],
        },
      },
      required: ['value'],
    });
    expect((schema['properties'] as Schema)['value']).toMatchObject({ anyOf: [{}, {}] });
  });

  it(`${AGENTS}: rejects ambiguous \`$ref\` sibling constraints`, () => {
    expect(
      refusal({
        type: 'object',
        properties: {
          value: {
            type: 'object',
            $ref: '#/$defs/value',
            properties: { local: { type: 'string' } },
            required: [],
          },
        },
        required: [],
        $defs: { value: { type: 'object' } },
      }),
    ).toMatch(/'\$ref' beside 'type' \(keywords Draft 7 ignores\) at value\.$/);
  });

  it(`${AGENTS}: rejects branch-aware normalization for plain anyOf schemas (plankit restores through the matching branch)`, () => {
    const { restore } = strict({
      type: 'object',
      properties: {
        value: {
          anyOf: [
            {
              type: 'object',
              properties: { kind: { const: 'text' }, note: { type: 'string' } },
              required: ['kind'],
            },
            {
              type: 'object',
              properties: { kind: { const: 'count' }, count: { type: 'number' } },
              required: ['kind'],
            },
          ],
        },
      },
      required: ['value'],
    });
    expect(restore({ value: { kind: 'text', note: null } })).toEqual({ value: { kind: 'text' } });
    expect(restore({ value: { kind: 'count', count: null } })).toEqual({
      value: { kind: 'count' },
    });
  });

  it(`${AGENTS}: leaves schemas outside the local normalization traversal unchanged (inapplicable keywords dropped)`, () => {
    expect(
      strict({
        type: 'object',
        properties: { s: { type: 'string', properties: { ignored: { type: 'null' } } } },
        required: ['s'],
      }).schema['properties'],
    ).toEqual({ s: { type: 'string' } });
  });

  it(`${AGENTS}: rejects nested JSON Schema resource scopes`, () => {
    expect(
      refusal({
        type: 'object',
        properties: { payload: { $ref: '#/$defs/container' } },
        required: ['payload'],
        $defs: {
          container: { $id: 'https://example.com/container', type: 'object', properties: {} },
        },
      }),
    ).toMatch(/nested '\$id'/);
  });
});

describe('ported: openai-node reference resolution, unions and singleton allOf', () => {
  const wrap = (value: unknown, extra: Schema = {}) => ({
    type: 'object',
    properties: { value },
    required: ['value'],
    ...extra,
  });
  const propertyValue = (schema: Schema) => (schema['properties'] as Schema)['value'];

  it(`${NODE}: normalizes root allOf branches exposed by local ref inlining`, () => {
    expect(
      strict({ $ref: '#/$defs/Input', $defs: { Input: { allOf: [nameBranch, ageBranch] } } })
        .schema,
    ).toEqual({ ...nameAndAge, $defs: { Input: nameAndAge } });
  });

  it(`${NODE}: rejects root local ref cycles exposed by singleton root allOf`, () => {
    expect(
      refusal({ $ref: '#/$defs/A', $defs: { A: { allOf: [{ $ref: '#/$defs/A' }] } } }),
    ).toMatch(/cyclic '\$ref' to 'A'/);
  });

  it(`${NODE}: adds additionalProperties: false to nested objects`, () => {
    expect(
      strict({
        type: 'object',
        properties: {
          user: {
            type: 'object',
            properties: {
              address: {
                type: 'object',
                properties: { city: { type: 'string' } },
                required: ['city'],
              },
            },
            required: ['address'],
          },
        },
        required: ['user'],
      }).schema,
    ).toMatchObject({
      additionalProperties: false,
      properties: {
        user: {
          additionalProperties: false,
          properties: { address: { additionalProperties: false } },
        },
      },
    });
  });

  it(`${NODE}: resolves pure local refs when checking nullable optional properties`, () => {
    const { schema, restore } = strict({
      type: 'object',
      $defs: { NullableString: { type: ['string', 'null'] } },
      properties: { nickname: { $ref: '#/$defs/NullableString' } },
    });
    expect(schema['required']).toEqual(['nickname']);
    expect((schema['properties'] as Schema)['nickname']).toEqual({
      $ref: '#/$defs/NullableString',
    });
    expect(restore({ nickname: null })).toEqual({ nickname: null });
  });

  it(`${NODE}: decodes complete URI fragments before splitting pointer tokens (the target hoisted)`, () => {
    const { schema, restore } = strict({
      type: 'object',
      $defs: {
        'A/properties/B': { type: 'number' },
        A: { type: 'object', properties: { B: { type: ['string', 'null'] } }, required: ['B'] },
      },
      properties: { value: { $ref: '#/$defs/A%2Fproperties%2FB' } },
    });
    expect(schema['required']).toEqual(['value']);
    expect(schema['$defs']).toMatchObject({
      __openai_strict_ref_0: { type: ['string', 'null'] },
      'A/properties/B': { type: 'number' },
    });
    expect(restore({ value: null })).toEqual({ value: null });
  });

  it(`${NODE}: resolves literal slash keys only through JSON Pointer escaping`, () => {
    const { schema } = strict(
      wrap(
        { $ref: '#/$defs/A~1properties~1B' },
        {
          $defs: {
            'A/properties/B': { type: 'string' },
            A: { type: 'object', properties: { B: { type: 'number' } }, required: ['B'] },
          },
        },
      ),
    );
    expect(propertyValue(schema)).toEqual({ $ref: '#/$defs/A~1properties~1B' });
    expect(schema['$defs']).toEqual({
      'A/properties/B': { type: 'string' },
      A: {
        type: 'object',
        properties: { B: { type: 'number' } },
        required: ['B'],
        additionalProperties: false,
      },
    });
  });

  it(`${NODE}: rejects malformed URI encodings in local refs`, () => {
    for (const ref of ['#/$defs/Text%2', '#/$defs/A%ZZ', '#/$defs/A~2B'])
      expect(refusal(wrap({ $ref: ref }, { $defs: { Text: { type: 'string' } } }))).toMatch(
        /not a local JSON Pointer .* at value\.$/,
      );
  });

  it(`${NODE}: rejects local refs into non-schema literal payloads`, () => {
    expect(refusal({ ...wrap({ $ref: '#/default' }), default: { type: 'string' } })).toMatch(
      /reaches no schema .* at value\.$/,
    );
  });

  it(`${NODE}: rejects boolean schemas reached through local refs`, () => {
    expect(
      refusal({ ...wrap({ $ref: '#/additionalProperties' }), additionalProperties: false }),
    ).toMatch(/accepts nothing \('false'\)|boolean schema 'false'/);
  });

  it(`${NODE}: allows local refs into traversed schema array locations (the target hoisted)`, () => {
    const { schema } = strict({
      type: 'object',
      properties: {
        source: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        alias: { $ref: '#/properties/source/anyOf/0' },
      },
      required: ['source', 'alias'],
    });
    expect((schema['properties'] as Schema)['alias']).toEqual({
      $ref: '#/$defs/__openai_strict_ref_0',
    });
    expect(schema['$defs']).toEqual({ __openai_strict_ref_0: { type: 'string' } });
  });

  it(`${NODE}: resolves local refs with $comment and other annotation-only siblings`, () => {
    const { schema } = strict({
      type: 'object',
      $defs: { NullableString: { type: ['string', 'null'] } },
      properties: {
        nickname: {
          $ref: '#/$defs/NullableString',
          $comment: 'Generated alias',
          title: 'Nickname',
          description: 'A preferred name',
          default: null,
          examples: [null],
        },
      },
    });
    expect(schema['required']).toEqual(['nickname']);
    expect((schema['properties'] as Schema)['nickname']).toEqual({
      $ref: '#/$defs/NullableString',
      $comment: 'Generated alias',
      title: 'Nickname',
      description: 'A preferred name',
      examples: [null],
    });
  });

  for (const keyword of ['$defs', 'definitions']) {
    it(`${NODE}: retains nested ${keyword} maps beside local refs (the target hoisted)`, () => {
      const { schema } = strict(
        wrap({
          $ref: `#/properties/value/${keyword}/Value`,
          [keyword]: { Value: { type: 'string' } },
        }),
      );
      expect(propertyValue(schema)).toEqual({ $ref: '#/$defs/__openai_strict_ref_0' });
      expect(schema['$defs']).toEqual({ __openai_strict_ref_0: { type: 'string' } });
    });
  }

  it(`${NODE}: conservatively rejects cyclic refs when checking nullable optional properties`, () => {
    expect(
      refusal({
        type: 'object',
        $defs: { Cyclic: { $ref: '#/$defs/Cyclic' } },
        properties: { nickname: { $ref: '#/$defs/Cyclic' } },
      }),
    ).toMatch(/cyclic '\$ref' to 'Cyclic' at nickname\.$/);
  });

  it(`${NODE}: rejects union-typed array schemas without items`, () => {
    expect(refusal(wrap({ type: ['array', 'null'] }))).toMatch(/array without 'items' at value\.$/);
  });

  it(`${NODE}: does not require items for schemas that do not declare arrays`, () => {
    expect(propertyValue(strict(wrap({ type: ['string', 'null'] })).schema)).toEqual({
      type: ['string', 'null'],
    });
  });

  it(`${NODE}: ignores undefined object-keyword placeholders when normalizing unions`, () => {
    expect(
      propertyValue(
        strict(wrap({ properties: undefined, anyOf: [{ type: 'string' }, { type: 'number' }] }))
          .schema,
      ),
    ).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
  });

  it(`${NODE}: rejects unsupported contentEncoding, contentMediaType, min/maxContains and dependent schemas`, () => {
    const cases: [string, Schema][] = [
      ['contentEncoding', { type: 'string', contentEncoding: 'base64' }],
      ['contentMediaType', { type: 'string', contentMediaType: 'application/json' }],
      ['minContains', { type: 'array', items: { type: 'string' }, minContains: 1 }],
      ['maxContains', { type: 'array', items: { type: 'string' }, maxContains: 1 }],
      ['dependentRequired', { type: 'object', properties: {}, dependentRequired: { a: ['b'] } }],
      [
        'dependentSchemas',
        { type: 'object', properties: {}, dependentSchemas: { a: { type: 'object' } } },
      ],
      ['dependencies', { type: 'object', properties: {}, dependencies: { a: ['b'] } }],
    ];
    for (const [keyword, value] of cases)
      expect(refusal(wrap(value))).toMatch(new RegExp(`'${keyword}' at value\\.$`));
  });

  for (const [name, wrapperType] of [
    ['a redundant array type', 'array'],
    ['a redundant nullable array type', ['array', 'null']],
  ] as const) {
    it(`${NODE}: removes ${name} from an anyOf wrapper`, () => {
      const branches = [
        { type: 'array', items: { type: 'string' } },
        { type: 'array', items: { type: 'number' } },
      ];
      expect(propertyValue(strict(wrap({ type: wrapperType, anyOf: branches })).schema)).toEqual({
        anyOf: branches,
      });
    });
  }

  it(`${NODE}: removes a redundant array type through singleton allOf union branches`, () => {
    expect(
      propertyValue(
        strict(
          wrap({
            type: 'array',
            anyOf: [
              { allOf: [{ type: 'array', items: { type: 'string' } }] },
              { type: 'array', items: { type: 'number' } },
            ],
          }),
        ).schema,
      ),
    ).toEqual({
      anyOf: [
        { type: 'array', items: { type: 'string' } },
        { type: 'array', items: { type: 'number' } },
      ],
    });
  });

  const kindBranch = (kind: string, extra: string, type: string) => ({
    type: 'object',
    properties: { kind: { type: 'string', const: kind }, [extra]: { type } },
    required: ['kind', extra],
  });
  for (const [name, wrapperType] of [
    ['a redundant object type', 'object'],
    ['a redundant nullable object type', ['object', 'null']],
  ] as const) {
    it(`${NODE}: removes ${name} from an anyOf wrapper before closing branches`, () => {
      expect(
        propertyValue(
          strict(
            wrap({
              type: wrapperType,
              anyOf: [kindBranch('foo', 'foo', 'string'), kindBranch('bar', 'bar', 'number')],
            }),
          ).schema,
        ),
      ).toEqual({
        anyOf: [
          { ...kindBranch('foo', 'foo', 'string'), additionalProperties: false },
          { ...kindBranch('bar', 'bar', 'number'), additionalProperties: false },
        ],
      });
    });
  }

  it(`${NODE}: removes a redundant object type through singleton allOf union branches`, () => {
    expect(
      propertyValue(
        strict(wrap({ type: 'object', anyOf: [{ allOf: [nameBranch] }, ageBranch] })).schema,
      ),
    ).toEqual({
      anyOf: [
        { ...nameBranch, additionalProperties: false },
        { ...ageBranch, additionalProperties: false },
      ],
    });
  });

  for (const kind of ['object', 'array']) {
    it(`${NODE}: keeps nullable ${kind} union wrappers fail closed when a branch is not ${kind}-only`, () => {
      const branch =
        kind === 'object'
          ? { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] }
          : { type: 'array', items: { type: 'string' } };
      expect(refusal(wrap({ type: [kind, 'null'], anyOf: [branch, { type: 'null' }] }))).toMatch(
        new RegExp(
          `'anyOf' inside a wrapper of ${kind} keywords that would bind every branch at value\\.$`,
        ),
      );
    });
  }

  it(`${NODE}: rejects non-empty object constraints on untyped anyOf wrappers`, () => {
    expect(
      refusal(
        wrap({
          properties: { kind: { type: 'string' } },
          anyOf: [{ type: 'string' }, { type: 'number' }],
        }),
      ),
    ).toMatch(
      /'anyOf' inside a wrapper of object keywords that would bind every branch at value\.$/,
    );
  });

  it(`${NODE}: inlines a single allOf variant with annotation siblings`, () => {
    expect(
      propertyValue(strict(wrap({ description: 'A user', allOf: [nameBranch] })).schema),
    ).toEqual({
      description: 'A user',
      ...nameBranch,
      additionalProperties: false,
    });
  });

  for (const keyword of ['$defs', 'definitions']) {
    it(`${NODE}: inlines a singleton allOf while preserving scoped ${keyword} maps (the target hoisted)`, () => {
      const { schema } = strict(
        wrap({
          [keyword]: { Name: { type: 'string' } },
          allOf: [{ $ref: `#/properties/value/${keyword}/Name` }],
        }),
      );
      expect(propertyValue(schema)).toEqual({ $ref: '#/$defs/__openai_strict_ref_0' });
    });

    it(`${NODE}: does not flatten a singleton allOf with malformed ${keyword} siblings`, () => {
      expect(refusal(wrap({ [keyword]: false, allOf: [{ type: 'string' }] }))).toMatch(
        /'\$?(defs|definitions)' that is not an object at value\.$/,
      );
    });
  }

  it(`${NODE}: removes a true singleton allOf branch without dropping annotations (plankit refuses: it accepts anything)`, () => {
    expect(refusal(wrap({ description: 'Any value', allOf: [true] }))).toMatch(
      /without a 'type' .* at value\.$/,
    );
  });

  it(`${NODE}: uses array items introduced by a singleton allOf branch`, () => {
    expect(
      strict({
        type: 'object',
        properties: { values: { allOf: [{ type: 'array', items: { type: 'string' } }] } },
        required: ['values'],
      }).schema['properties'],
    ).toEqual({ values: { type: 'array', items: { type: 'string' } } });
  });

  it(`${NODE}: preserves refs into allOf branches before flattening`, () => {
    const { schema } = strict({
      type: 'object',
      properties: {
        value: { allOf: [{ type: 'string' }] },
        alias: { $ref: '#/properties/value/allOf/0' },
      },
      required: ['value', 'alias'],
    });
    expect(schema).toMatchObject({
      $defs: { __openai_strict_allOf_ref_0: { type: 'string' } },
      properties: {
        value: { type: 'string' },
        alias: { $ref: '#/$defs/__openai_strict_allOf_ref_0' },
      },
    });
  });

  it(`${NODE}: rejects refs to missing allOf branches`, () => {
    expect(
      refusal({
        type: 'object',
        properties: {
          value: { allOf: [{ type: 'string' }] },
          alias: { $ref: '#/properties/value/allOf/1' },
        },
        required: ['value', 'alias'],
      }),
    ).toMatch(/reaches no schema .* at alias\.$/);
  });

  it(`${NODE}: resolves percent-encoded JSON Pointer tokens before pointer unescaping`, () => {
    const { schema } = strict({
      type: 'object',
      $defs: { 'A B': { type: 'string' }, 'A/B': { type: 'number' } },
      properties: { spaced: { $ref: '#/$defs/A%20B' }, slash: { $ref: '#/$defs/A%7E1B' } },
      required: ['spaced', 'slash'],
    });
    expect(schema['properties']).toEqual({
      spaced: { $ref: '#/$defs/A%20B' },
      slash: { $ref: '#/$defs/A%7E1B' },
    });
    expect(schema['$defs']).toEqual({ 'A B': { type: 'string' }, 'A/B': { type: 'number' } });
  });

  it(`${NODE}: allows a root $id and undefined nested $id values but rejects defined nested resource scopes`, () => {
    expect(
      strict({
        $id: 'https://example.com/root.json',
        type: 'object',
        properties: { value: { type: 'string', $id: undefined } },
        required: ['value'],
      }).schema,
    ).toEqual({
      $id: 'https://example.com/root.json',
      type: 'object',
      properties: { value: { type: 'string' } },
      required: ['value'],
      additionalProperties: false,
    });
    expect(refusal(wrap({ type: 'string', $id: 'nested.json' }))).toMatch(/nested '\$id'/);
  });

  it(`${NODE}: retains validation through annotated local reference chains`, () => {
    const { schema } = strict(
      wrap(
        { $ref: '#/$defs/Alias', description: 'A text value' },
        { $defs: { Text: { type: 'string' }, Alias: { $ref: '#/$defs/Text' } } },
      ),
    );
    expect((schema['$defs'] as Schema)['Alias']).toEqual({ $ref: '#/$defs/Text' });
    expect(propertyValue(schema)).toEqual({ description: 'A text value', $ref: '#/$defs/Alias' });
  });
});

describe('ported: openai-node transform-branches (reference resolution through the converter)', () => {
  const BRANCHES = 'openai-node tests/lib/transform-branches.test.ts';
  const root = (ref: string) => ({
    type: 'object',
    $defs: {
      'slash/key': { type: 'string' },
      'tilde~key': { type: 'number' },
      'percent%key': { type: 'boolean' },
    },
    properties: {
      union: { anyOf: [{ type: 'string' }, false] },
      nested: { type: 'object', properties: { value: { type: 'number' } } },
      alias: { $ref: ref },
    },
    required: ['union', 'nested', 'alias'],
    // The peer's root also has `dependencies` and an object `enum`, which plankit refuses at
    // the root itself; `default` is dropped, and a pointer into it reaches no schema.
    default: { nested: { type: 'string' } },
  });
  // The schema the alias reaches in the converted schema.
  const aliasOf = (ref: string) => {
    const { schema } = toStrictJsonSchema(root(ref) as Schema);
    const alias = (schema['properties'] as Schema)['alias'] as Schema;
    return resolvePointer(schema, String(alias['$ref']));
  };

  it(`${BRANCHES}: resolves the document root and escaped or encoded property names`, () => {
    expect(aliasOf('#/$defs/slash~1key')).toEqual({ type: 'string' });
    expect(aliasOf('#/$defs/tilde~0key')).toEqual({ type: 'number' });
    expect(aliasOf('#/$defs/percent%25key')).toEqual({ type: 'boolean' });
    expect(aliasOf('#/properties%2Funion%2FanyOf%2F0')).toEqual({ type: 'string' });
  });

  it(`${BRANCHES}: resolves boolean and object definitions in schema arrays and dependency maps (plankit refuses 'dependencies')`, () => {
    expect(aliasOf('#/properties/union/anyOf/0')).toEqual({ type: 'string' });
    expect(aliasOf('#/properties/nested')).toEqual({
      type: 'object',
      properties: { value: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
      required: ['value'],
      additionalProperties: false,
    });
    expect(refusal({ ...root('#/dependencies/schema'), dependencies: {} })).toMatch(
      /'dependencies' at <root>/,
    );
  });

  it(`${BRANCHES}: rejects invalid or non-schema references`, () => {
    for (const ref of [
      'https://example.com/schema.json',
      '#not-a-pointer',
      '#/%E0%A4%A',
      '#/$defs/slash~2key',
      '#/$defs/tilde~',
      '#/$defs/missing',
      '#/properties/union/anyOf',
      '#/properties/union/anyOf/01',
      '#/properties/union/anyOf/-1',
      '#/properties/union/anyOf/5',
      '#/properties/nested/properties/missing',
      '#/default/nested',
      '#/enum/0',
      '#/dependencies/property',
    ])
      expect(() => toStrictJsonSchema(root(ref) as Schema), ref).toThrow(/ at alias\.$/);
    expect(() => toStrictJsonSchema(root('#/properties/union/anyOf/1') as Schema)).toThrow(
      /accepts nothing \('false'\) at properties\.union\.anyOf\.1\.$/,
    );
  });

  it(`${BRANCHES}: rejects validation siblings on a root local reference and its aliases`, () => {
    expect(
      refusal({
        $ref: '#/$defs/Target',
        properties: {},
        $defs: { Target: { type: 'object', properties: {} } },
      }),
    ).toMatch(/'\$ref' beside 'properties' \(keywords Draft 7 ignores\) at <root>\.$/);
    expect(
      refusal({
        $ref: '#/$defs/Alias',
        $defs: {
          Alias: { $ref: '#/$defs/Target', type: 'object' },
          Target: { type: 'object', properties: {} },
        },
      }),
    ).toMatch(/'\$ref' beside 'type' \(keywords Draft 7 ignores\) at <root>\.$/);
  });

  it(`${BRANCHES}: rejects malformed required property declarations`, () => {
    for (const required of [1, ['value', 1]])
      expect(
        refusal({ type: 'object', properties: { value: { type: 'string' } }, required }),
      ).toMatch(/'required' that is not a list of names at <root>/);
  });

  it(`${BRANCHES}: does not silently accept optional properties when null is not proven valid`, () => {
    for (const property of [
      { enum: 'invalid' },
      { oneOf: [{ type: 'null' }, { type: 'null' }] },
      { type: ['string', 'null'], not: { type: 'null' } },
    ])
      refusal({ type: 'object', properties: { optional: property } });
    // An enum without null is made nullable, and its null read back as absent.
    const { restore } = strict({
      type: 'object',
      properties: { optional: { enum: ['non-null'] } },
    });
    expect(restore({ optional: null })).toEqual({});
  });

  it(`${BRANCHES}: rejects root unions that cannot be reduced to a single object branch`, () => {
    expect(refusal({ type: 'object', anyOf: [false, false] })).toMatch(/no branch that accepts/);
    for (const anyOf of [[true], [false, true]])
      expect(refusal({ type: 'object', anyOf })).toMatch(/'anyOf' .* at <root>\.$/);
  });
});

describe('ported: openai-agents-js references, inapplicable keywords and zod', () => {
  it(`${AGENTS}: rejects typeless open object schemas instead of narrowing them (plankit closes every object)`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: { open: { properties: { value: { type: 'string' } } } },
      required: ['open'],
      additionalProperties: false,
    });
    expect((schema['properties'] as Schema)['open']).toEqual({
      type: 'object',
      properties: { value: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['value'],
      additionalProperties: false,
    });
    expect(restore({ open: { value: null } })).toEqual({ open: {} });
  });

  it(`${AGENTS}: decodes URI fragments before splitting JSON Pointer tokens`, () => {
    const { restore } = strict({
      type: 'object',
      properties: { payload: { $ref: '#%2F$defs%2Fgroup%2F$defs%2Fpayload' } },
      required: ['payload'],
      $defs: {
        group: {
          $defs: {
            payload: { type: 'object', properties: { note: { type: 'string' } }, required: [] },
          },
        },
        'group/$defs/payload': {
          type: 'object',
          properties: { note: { type: ['string', 'null'] } },
          required: [],
        },
      },
    });
    // The nested definition is the target: its optional `note` does not take null itself.
    expect(restore({ payload: { note: null } })).toEqual({ payload: {} });
  });

  it(`${AGENTS}: stabilizes references to schemas outside the ordinary conversion walk`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: { payload: { $ref: '#/$defs/scalar/properties/target' } },
      required: ['payload'],
      $defs: {
        scalar: {
          type: 'string',
          properties: {
            target: { type: 'object', properties: { note: { type: 'string' } }, required: [] },
          },
        },
      },
    });
    expect((schema['properties'] as Schema)['payload']).toEqual({
      $ref: '#/$defs/__openai_strict_ref_0',
    });
    expect(restore({ payload: { note: null } })).toEqual({ payload: {} });
  });

  it(`${AGENTS}: stabilizes references to schemas replaced during strict conversion (plankit refuses the open container, as openai-node does)`, () => {
    // Every root definition is converted, as openai-node converts them: the map is refused.
    expect(
      refusal({
        type: 'object',
        properties: { payload: { $ref: '#/$defs/container/additionalProperties' } },
        required: ['payload'],
        $defs: {
          container: {
            type: 'object',
            properties: {},
            required: [],
            additionalProperties: {
              type: 'object',
              properties: { note: { type: 'string' } },
              required: [],
            },
          },
        },
      }),
    ).toMatch(/'additionalProperties' other than false .* at \$defs\.container\.$/);
  });

  it(`${AGENTS}: rejects references created only by strict conversion`, () => {
    expect(
      refusal({
        type: 'object',
        properties: { alias: { $ref: '#/$defs/payload/properties/note/anyOf/0' } },
        required: ['alias'],
        $defs: {
          payload: {
            type: 'object',
            properties: {
              note: { type: 'object', properties: { child: { type: 'string' } }, required: [] },
            },
            required: [],
          },
        },
      }),
    ).toMatch(/reaches no schema .* at alias\.$/);
  });

  it(`${AGENTS}: rejects unsupported keywords in retained schema locations (plankit drops keywords the type ignores)`, () => {
    expect(
      strict({
        type: 'object',
        properties: {
          value: { type: 'string', properties: { ignored: { allOf: [{ type: 'string' }] } } },
        },
        required: ['value'],
        additionalProperties: false,
      }).schema['properties'],
    ).toEqual({ value: { type: 'string' } });
  });

  it(`${AGENTS}: ignores inapplicable properties when checking plain anyOf branches`, () => {
    expect(
      strict({
        type: 'object',
        properties: {
          value: {
            anyOf: [
              { type: 'string', properties: { ignored: { type: 'string' } } },
              { type: 'number' },
            ],
          },
        },
        required: ['value'],
      }).schema['properties'],
    ).toEqual({ value: { anyOf: [{ type: 'string' }, { type: 'number' }] } });
  });

  it(`${AGENTS}: does not normalize values through inapplicable properties`, () => {
    const sharedTarget = { type: 'object', properties: { note: { type: 'string' } }, required: [] };
    const { restore } = strict({
      type: 'object',
      properties: { scalar: { type: 'string', properties: { ignored: sharedTarget } } },
      required: ['scalar'],
      $defs: { sharedTarget },
    });
    expect(restore({ scalar: { ignored: { note: null } } })).toEqual({
      scalar: { ignored: { note: null } },
    });
  });

  it(`${AGENTS}: rejects indeterminate unresolved and external references`, () => {
    for (const $ref of ['#/$defs/missing', 'https://example.com/schema.json#/$defs/payload'])
      refusal({ type: 'object', properties: { payload: { $ref } }, required: [], $defs: {} });
  });

  it(`${AGENTS}: strips strict nulls from optional Zod object, union, array, tuple, and record fields (plankit refuses the tuple and the string-keyed record)`, () => {
    const withoutTupleAndRecord = z.object({
      direct: z.string().optional(),
      nullable: z.string().nullable().optional(),
      union: z.union([
        z.object({ kind: z.literal('text'), optional: z.string().optional() }),
        z.object({ kind: z.literal('count'), optional: z.number().optional() }),
      ]),
      list: z.array(z.object({ optional: z.string().optional() })),
    });
    const { restore } = strict(z.toJSONSchema(withoutTupleAndRecord, { io: 'input' }));
    expect(
      restore({
        direct: null,
        nullable: null,
        union: { kind: 'text', optional: null },
        list: [{ optional: null }],
      }),
    ).toEqual({ nullable: null, union: { kind: 'text' }, list: [{}] });
    const tuple = z.object({ tuple: z.tuple([z.string().optional(), z.number().optional()]) });
    expect(refusal(z.toJSONSchema(tuple, { io: 'input' }))).toMatch(/'prefixItems' at tuple\./);
    const record = z.object({ record: z.record(z.string(), z.string().optional()) });
    expect(refusal(z.toJSONSchema(record, { io: 'input' }))).toMatch(/at record\.$/);
  });
});

describe('ported: openai-node refusals', () => {
  it(`${NODE}: rejects missing and external targets in root local ref chains`, () => {
    expect(refusal({ $ref: '#/$defs/A', $defs: { A: { $ref: '#/$defs/Missing' } } })).toMatch(
      /missing definition "Missing" at <root>/,
    );
    expect(
      refusal({
        $ref: '#/$defs/A',
        $defs: { A: { $ref: 'https://example.com/schema.json#/$defs/Input' } },
      }),
    ).toMatch(/not a local JSON Pointer .* at <root>/);
  });

  for (const [name, additionalProperties] of [
    ['true', true],
    ['schema-valued', { type: 'string' }],
  ] as const) {
    it(`${NODE}: rejects ${name} additionalProperties on implicit object schemas`, () => {
      expect(
        refusal({
          type: 'object',
          properties: {
            user: {
              properties: { name: { type: 'string' } },
              required: ['name'],
              additionalProperties,
            },
          },
          required: ['user'],
        }),
      ).toMatch(/'additionalProperties' other than false .* at user\.$/);
    });
  }

  for (const isRequired of [false, true]) {
    it(`${NODE}: rejects Draft 7 validation siblings on ${isRequired ? 'required' : 'optional'} $ref properties`, () => {
      expect(
        refusal({
          type: 'object',
          $defs: { Text: { type: 'string' } },
          properties: { value: { $ref: '#/$defs/Text', type: 'number' } },
          ...(isRequired ? { required: ['value'] } : {}),
        }),
      ).toMatch(/'\$ref' beside 'type' \(keywords Draft 7 ignores\) at value\.$/);
    });
  }

  const nested: [string, string, Schema][] = [
    [
      'contains',
      'contains',
      {
        type: 'array',
        items: { type: 'string' },
        contains: {
          type: 'object',
          properties: { value: { type: 'string' } },
          required: ['value'],
        },
      },
    ],
    [
      'propertyNames',
      'propertyNames',
      {
        type: 'object',
        properties: {},
        propertyNames: { type: 'string' },
        additionalProperties: false,
      },
    ],
    [
      'if/then/else',
      'if',
      Object.fromEntries([
        ['type', 'object'],
        ['properties', {}],
        ['if', { type: 'object' }],
        ['then', { type: 'object' }],
        ['else', { type: 'object' }],
        ['additionalProperties', false],
      ]),
    ],
    [
      'schema-valued dependencies',
      'dependencies',
      {
        type: 'object',
        properties: { value: { type: 'string' } },
        required: ['value'],
        dependencies: { value: { type: 'object', properties: { dependent: { type: 'string' } } } },
        additionalProperties: false,
      },
    ],
    [
      'dependentSchemas',
      'dependentSchemas',
      {
        type: 'object',
        properties: { value: { type: 'string' } },
        required: ['value'],
        dependentSchemas: { value: { type: 'object', properties: {} } },
        additionalProperties: false,
      },
    ],
    [
      'dependentRequired',
      'dependentRequired',
      {
        type: 'object',
        properties: { value: { type: 'string' } },
        required: ['value'],
        dependentRequired: { value: ['dependent'] },
        additionalProperties: false,
      },
    ],
  ];
  for (const [name, keyword, property] of nested) {
    it(`${NODE}: rejects unsupported nested ${name} schemas`, () => {
      expect(
        refusal({ type: 'object', properties: { value: property }, required: ['value'] }),
      ).toMatch(new RegExp(`'${keyword}' at value\\.$`));
    });
  }

  it(`${NODE}: processes nested object properties`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: {
        user: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            address: { type: 'object', properties: { city: { type: 'string' } } },
          },
          required: ['name', 'address'],
        },
      },
      required: ['user'],
    });
    expect((schema['properties'] as Schema)['user']).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        address: {
          type: 'object',
          properties: { city: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
          required: ['city'],
          additionalProperties: false,
        },
      },
      required: ['name', 'address'],
      additionalProperties: false,
    });
    expect(restore({ user: { name: 'a', address: { city: null } } })).toEqual({
      user: { name: 'a', address: {} },
    });
  });

  it(`${NODE}: processes $defs schemas`, () => {
    expect(
      strict({
        type: 'object',
        properties: { user: { $ref: '#/$defs/User' } },
        required: ['user'],
        $defs: {
          User: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      }).schema['$defs'],
    ).toEqual({
      User: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
    });
  });

  it(`${NODE}: processes definitions schemas`, () => {
    expect(
      strict({
        type: 'object',
        properties: {},
        definitions: {
          User: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      }).schema,
    ).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
      definitions: {
        User: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    });
  });
});

describe('ported: openai-node root references', () => {
  it(`${NODE}: preserves root dialect and base metadata when inlining a local ref`, () => {
    expect(
      strict({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'https://example.com/input.json',
        $ref: '#/$defs/Input',
        $defs: { Input: nameBranch },
      }).schema,
    ).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://example.com/input.json',
      ...nameBranch,
      additionalProperties: false,
      $defs: { Input: { ...nameBranch, additionalProperties: false } },
    });
  });

  it(`${NODE}: preserves root ref-chain annotations with outer precedence`, () => {
    expect(
      rootOf(
        strict({
          $ref: '#/$defs/A',
          description: 'root description',
          $defs: {
            A: { $ref: '#/$defs/B', title: 'alias title', description: 'alias description' },
            B: {
              $ref: '#/$defs/Input',
              title: 'inner alias title',
              $comment: 'inner alias comment',
            },
            Input: {
              type: 'object',
              title: 'target title',
              description: 'target description',
              $comment: 'target comment',
              properties: { name: { type: 'string' } },
              required: ['name'],
            },
          },
        }).schema,
      ),
    ).toEqual({
      type: 'object',
      title: 'alias title',
      description: 'root description',
      $comment: 'inner alias comment',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  for (const keyword of ['$defs', 'definitions']) {
    it(`${NODE}: preserves nested ${keyword} maps at their original pointer scope when inlining a root local ref (the nested target hoisted)`, () => {
      expect(
        strict({
          $ref: `#/${keyword}/Input`,
          [keyword]: {
            Input: {
              type: 'object',
              [keyword]: { Nested: { type: 'string' } },
              properties: {
                nested: { $ref: `#/${keyword}/Input/${keyword}/Nested` },
                outer: { $ref: `#/${keyword}/Nested` },
              },
              required: ['nested', 'outer'],
            },
            Nested: { type: 'number' },
          },
        }).schema,
      ).toEqual({
        type: 'object',
        properties: {
          nested: { $ref: '#/$defs/__openai_strict_ref_0' },
          outer: { $ref: `#/${keyword}/Nested` },
        },
        required: ['nested', 'outer'],
        additionalProperties: false,
        // The root definitions stay; `Input`'s own map is left out, its entry hoisted.
        [keyword]: {
          Input: {
            type: 'object',
            properties: {
              nested: { $ref: '#/$defs/__openai_strict_ref_0' },
              outer: { $ref: `#/${keyword}/Nested` },
            },
            required: ['nested', 'outer'],
            additionalProperties: false,
          },
          Nested: { type: 'number' },
          ...(keyword === '$defs' ? { __openai_strict_ref_0: { type: 'string' } } : {}),
        },
        ...(keyword === '$defs' ? {} : { $defs: { __openai_strict_ref_0: { type: 'string' } } }),
      });
    });
  }
});

describe('ported: peer cases the tests above did not cover', () => {
  it(`${NODE}: rejects optional literal-constrained properties when another keyword excludes null (plankit makes the field nullable)`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: { status: { type: 'string', enum: ['ready', null] } },
    });
    // `type: 'string'` excludes the enum's null, so null gets its own branch and means absent.
    expect(schema['properties']).toEqual({
      status: { anyOf: [{ type: 'string', enum: ['ready', null] }, { type: 'null' }] },
    });
    expect(restore({ status: null })).toEqual({});
    expect(restore({ status: 'ready' })).toEqual({ status: 'ready' });
  });

  it(`${AGENTS}: rejects unsupported strict \`allOf\` schemas (plankit merges allOf as openai-node does)`, () => {
    const { schema, restore } = strict({
      type: 'object',
      properties: { value: { allOf: [{ type: 'string' }] } },
      required: [],
    });
    expect(schema['properties']).toEqual({
      value: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
    expect(restore({ value: null })).toEqual({});
  });

  it(`${AGENTS}: rejects ambiguous \`anyOf\` sibling constraints`, () => {
    expect(
      refusal({
        type: 'object',
        properties: {
          value: {
            anyOf: [{ type: 'object' }],
            properties: { local: { type: 'string' } },
            required: [],
          },
        },
        required: [],
        $defs: { value: { type: 'object' } },
      }),
    ).toMatch(
      /'anyOf' inside a wrapper of object keywords that would bind every branch at value\.$/,
    );
  });
});

describe('agreement with the peers (testing/strict-schema-peer-cases.ts)', () => {
  const tally = new Map<string, number>();
  for (const [, , kind] of STRICT_SCHEMA_PEER_CASES) tally.set(kind, (tally.get(kind) ?? 0) + 1);
  const count = (kind: string) => tally.get(kind) ?? 0;
  const differences = Object.keys(STRICT_SCHEMA_DIFFERENCES) as StrictSchemaDifference[];
  const sum = (keep: (key: StrictSchemaDifference) => boolean) =>
    differences.filter(keep).reduce((total, key) => total + count(key), 0);

  vitestIt('counts every case once: exact, internal, or a listed difference', () => {
    expect(Object.fromEntries(tally)).toEqual({
      exact: 213,
      internal: 30,
      optional: 3,
      branchRestore: 1,
      allOfAgents: 1,
      typelessOpen: 1,
      inapplicable: 1,
      trueSchemas: 1,
      bareRefCycle: 1,
      peersDisagree: 7,
      pointers: 10,
      typeless: 1,
    });
    expect(STRICT_SCHEMA_PEER_CASES).toHaveLength(270);
    // Only openai-node's helper tests are internal.
    for (const [file, title, kind] of STRICT_SCHEMA_PEER_CASES)
      if (kind === 'internal') expect(file, title).toBe('nodeBranches');
  });

  vitestIt("docs/adapters.md reports the list's numbers and its table of differences", () => {
    const docs = readFileSync(new URL('../../../../../docs/adapters.md', import.meta.url), 'utf8');
    const start = docs.indexOf('### Strict schemas: where plankit differs from the peers');
    expect(start).toBeGreaterThan(0);
    const end = docs.indexOf('\n## ', start);
    const section = docs.slice(start, end);
    const text = section.replace(/\s+/g, ' ');
    const comparable = STRICT_SCHEMA_PEER_CASES.length - count('internal');
    const exact = count('exact');
    const form = sum((key) => STRICT_SCHEMA_DIFFERENCES[key].form);
    const other = sum((key) => STRICT_SCHEMA_DIFFERENCES[key].otherPeer);
    const percent = (part: number) => Math.floor((part * 100) / comparable);
    expect(exact + sum(() => true)).toBe(comparable);
    expect(text).toContain(
      `Of their ${STRICT_SCHEMA_PEER_CASES.length} cases, ${count('internal')} test openai-node's internal helpers`,
    );
    expect(text).toContain(
      `Of the other ${comparable}, **${exact} give exactly the peer's result** (${percent(exact)}%). In ${other} more the two peers' converters disagree`,
    );
    expect(text).toContain(
      `**${exact + other} of ${comparable} (${percent(exact + other)}%) agree** with a peer`,
    );
    expect(text).toContain(
      `${form} more differ${form === 1 ? 's' : ''} only in the form of the output`,
    );
    expect(text).toContain(
      `**${exact + other + form} of ${comparable} (${percent(exact + other + form)}%) agree in meaning**`,
    );
    expect(text).toContain(
      `The other ${comparable - exact - other - form} are deliberate differences`,
    );
    const rows = new Map<string, number>();
    for (const line of section.split('\n')) {
      if (!line.startsWith('| ') || /^\| (Difference|---) \|/.test(line)) continue;
      const cells = line.split(' | ');
      rows.set((cells[0] as string).slice(2), Number((cells.at(-1) as string).replace(' |', '')));
    }
    expect(rows).toEqual(
      new Map(differences.map((key) => [STRICT_SCHEMA_DIFFERENCES[key].row, count(key)])),
    );
  });

  vitestIt('has a ported test for every comparable case, and no ported test without a case', () => {
    const covered = new Set<string>();
    for (const [file, title, kind, ported] of STRICT_SCHEMA_PEER_CASES) {
      if (ported === undefined) {
        expect(kind, title).toBe('internal');
        continue;
      }
      for (const title of typeof ported === 'string' ? [ported] : ported) {
        const full = `${PEER_FILES[file]}: ${title}`;
        expect(portedTitles.has(full), full).toBe(true);
        covered.add(full);
      }
    }
    const origins = Object.values(PEER_FILES);
    const orphans = [...portedTitles].filter(
      (title) => origins.some((origin) => title.startsWith(`${origin}: `)) && !covered.has(title),
    );
    expect(orphans).toEqual([]);
  });
});
