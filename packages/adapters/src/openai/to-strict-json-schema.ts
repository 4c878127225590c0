import { AdapterError } from '../adapter-error.ts';
import type { JsonSchema } from '../tool-json-schema.ts';

/** A schema rewritten for OpenAI strict mode, and the way back for the arguments. @public */
export interface StrictJsonSchema {
  /** Every property required, optional ones nullable, every object closed. */
  readonly schema: JsonSchema;
  /**
   * Reads strict-mode arguments back: a `null` the model sent for a field that was optional
   * (and not nullable) becomes absent again, before validation.
   */
  restore(args: unknown): unknown;
}

// Keywords strict mode cannot express (the openai package refuses the same set).
const UNSUPPORTED = new Set([
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'minContains',
  'maxContains',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'prefixItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'uniqueItems',
]);

type Restore = (value: unknown) => unknown;
const identity: Restore = (value) => value;

function refuse(path: string, message: string): never {
  throw new AdapterError(
    'schema_unsupported',
    `OpenAI strict mode cannot express ${message} at ${path || '<root>'}.`,
    {
      field: path,
    },
  );
}

function acceptsNull(schema: JsonSchema): boolean {
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  const anyOf = schema['anyOf'];
  return (
    Array.isArray(anyOf) &&
    anyOf.some((branch) => typeof branch === 'object' && branch !== null && acceptsNull(branch))
  );
}

function nullable(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  const type = schema['type'];
  // Scalars take a type union; objects and arrays take anyOf with null, the form OpenAI documents.
  const scalar = typeof type === 'string' && type !== 'object' && type !== 'array';
  if (scalar && schema['enum'] === undefined && schema['const'] === undefined) {
    return { ...schema, type: [type, 'null'] };
  }
  const { description, ...rest } = schema;
  return description === undefined
    ? { anyOf: [rest, { type: 'null' }] }
    : { description, anyOf: [rest, { type: 'null' }] };
}

function visit(node: unknown, path: string): { schema: JsonSchema; restore: Restore } {
  if (typeof node !== 'object' || node === null || Array.isArray(node))
    refuse(path, 'a schema that is not an object');
  const source = node as JsonSchema;
  for (const keyword of Object.keys(source))
    if (UNSUPPORTED.has(keyword)) refuse(path, `'${keyword}'`);
  if (
    Object.keys(source).every(
      (keyword) => keyword === 'description' || keyword === 'title' || keyword === 'default',
    )
  ) {
    refuse(path, 'a schema that accepts anything');
  }
  const { default: _default, ...schema } = source;
  const out: Record<string, unknown> = { ...schema };
  let restore: Restore = identity;

  const properties = schema['properties'];
  if (schema['type'] === 'object' || properties !== undefined) {
    const extra = schema['additionalProperties'];
    if (extra !== undefined && extra !== false)
      refuse(path, "'additionalProperties' other than false");
    const props = (properties ?? {}) as Record<string, unknown>;
    const required = new Set(
      Array.isArray(schema['required']) ? (schema['required'] as string[]) : [],
    );
    const nextProps: Record<string, unknown> = {};
    const childRestores = new Map<string, Restore>();
    const stripNull = new Set<string>();
    for (const [key, child] of Object.entries(props)) {
      const converted = visit(child, path === '' ? key : `${path}.${key}`);
      if (required.has(key)) nextProps[key] = converted.schema;
      else {
        if (!acceptsNull(converted.schema)) stripNull.add(key);
        nextProps[key] = nullable(converted.schema);
      }
      if (converted.restore !== identity) childRestores.set(key, converted.restore);
    }
    out['properties'] = nextProps;
    out['required'] = Object.keys(nextProps);
    out['additionalProperties'] = false;
    if (stripNull.size > 0 || childRestores.size > 0) {
      restore = (value) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
        const copy: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(value)) {
          if (item === null && stripNull.has(key)) continue;
          const inner = childRestores.get(key);
          Object.defineProperty(copy, key, {
            value: inner === undefined ? item : inner(item),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return copy;
      };
    }
  }

  const items = schema['items'];
  if (items !== undefined) {
    if (Array.isArray(items)) refuse(path, "tuple 'items'");
    const converted = visit(items, `${path}[]`);
    out['items'] = converted.schema;
    if (converted.restore !== identity) {
      restore = (value) => (Array.isArray(value) ? value.map(converted.restore) : value);
    }
  }

  const anyOf = schema['anyOf'];
  if (Array.isArray(anyOf))
    out['anyOf'] = anyOf.map((branch, index) => visit(branch, `${path}|${index}`).schema);

  for (const keyword of ['$defs', 'definitions'] as const) {
    const defs = schema[keyword];
    if (typeof defs === 'object' && defs !== null) {
      out[keyword] = Object.fromEntries(
        Object.entries(defs).map(([name, def]) => [name, visit(def, `${keyword}.${name}`).schema]),
      );
    }
  }
  return { schema: out, restore };
}

/**
 * Rewrites a tool's JSON Schema for OpenAI strict mode: every property required, optional ones
 * nullable, every object closed (`additionalProperties: false`), `default` dropped. The
 * mapping is reversible through {@link StrictJsonSchema.restore}.
 *
 * @throws AdapterError `schema_unsupported` naming the keyword and path strict mode cannot
 *   express (`oneOf`, `allOf`, `patternProperties`, open `additionalProperties`, a schema that
 *   accepts anything, ...)
 * @public
 */
export function toStrictJsonSchema(schema: JsonSchema): StrictJsonSchema {
  if (schema['type'] !== 'object') refuse('', "a root that is not type 'object'");
  const { schema: strict, restore } = visit(schema, '');
  return Object.freeze({ schema: strict, restore });
}
