import { isRecord } from '@plankit/core/internal-unstable';
import { pointerTokens, resolvePointer } from './json-pointer.ts';
import { joinPath, quoted } from './schema-node.ts';

/**
 * OpenAI's documented limits for a strict schema (Structured Outputs, "Supported schemas"):
 * up to 5,000 object properties in total, 10 levels of object nesting, 120,000 characters of
 * property names, definition names, enum values and const values together, 1,000 enum values
 * in total, and 15,000 characters for all the values of one string enum of more than 250.
 */
export const STRICT_LIMITS: {
  readonly properties: number;
  readonly nesting: number;
  readonly characters: number;
  readonly enumValues: number;
  readonly largeEnum: number;
  readonly largeEnumCharacters: number;
} = Object.freeze({
  properties: 5_000,
  nesting: 10,
  characters: 120_000,
  enumValues: 1_000,
  largeEnum: 250,
  largeEnumCharacters: 15_000,
});

/** Keywords a strict schema may use (beside `$defs`, and `$schema` and `$id` at the root). */
export const STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'title',
  '$comment',
  'examples',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  '$ref',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

// What may stand beside a `$ref`, and what only the root may name (its dialect and base URI).
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples']);
const ROOT_METADATA = new Set(['$schema', '$id']);

/** String formats strict mode supports. */
export const STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** A rule a schema breaks, and where. */
export interface StrictSchemaProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * The first rule of OpenAI strict mode a schema breaks, or `undefined` when it keeps them all:
 * an object root without `anyOf`; every object closed (`additionalProperties: false`) with
 * every property required; only supported keywords and formats; definitions only at the
 * root, and `$ref` only to the root (`#`) or to one of its definitions (`#/$defs/Name`,
 * `#/definitions/Name`), the only references OpenAI resolves; arrays with `items`; and the
 * size limits of {@link STRICT_LIMITS}.
 */
export function strictSchemaProblem(schema: unknown): StrictSchemaProblem | undefined {
  if (!isRecord(schema)) return { path: '<root>', message: 'a root that is not an object schema' };
  if (schema['type'] !== 'object')
    return { path: '<root>', message: "a root that is not type 'object'" };
  if (schema['anyOf'] !== undefined) return { path: '<root>', message: "'anyOf' at the root" };
  let properties = 0;
  let characters = 0;
  let enumValues = 0;
  let problem: StrictSchemaProblem | undefined;
  const fail = (path: string, message: string): false => {
    problem ??= { path: path || '<root>', message };
    return false;
  };
  const countText = (value: unknown) => {
    characters += typeof value === 'string' ? value.length : JSON.stringify(value).length;
  };

  const walk = (node: unknown, path: string, depth: number): boolean => {
    if (problem !== undefined) return false;
    if (depth > 256) return fail(path, 'a schema nested too deeply');
    if (!isRecord(node)) return fail(path, 'a schema that is not an object');
    for (const key of Object.keys(node)) {
      if (key === '$defs' || key === 'definitions') {
        // Definitions maps, at the root only: each entry a schema.
        if (node !== schema) return fail(path, `'${key}' below the root`);
        const map = node[key];
        if (!isRecord(map)) return fail(path, `'${key}' that is not an object`);
        for (const name of Object.keys(map)) {
          characters += name.length;
          if (!walk(map[name], joinPath(path, `${key}.${name}`), depth + 1)) return false;
        }
      } else if (!STRICT_KEYWORDS.has(key) && !(node === schema && ROOT_METADATA.has(key)))
        return fail(path, `the keyword '${quoted(key)}'`);
    }
    const ref = node['$ref'];
    if (ref !== undefined) {
      if (typeof ref !== 'string' || (ref !== '#' && !isRecord(resolvePointer(schema, ref))))
        return fail(path, `a '$ref' that reaches no schema of this one (${quoted(String(ref))})`);
      const tokens = pointerTokens(ref) ?? [];
      const topLevel =
        tokens.length === 2 && (tokens[0] === '$defs' || tokens[0] === 'definitions');
      if (ref !== '#' && !topLevel)
        return fail(path, `a '$ref' to a place that is not a root definition (${quoted(ref)})`);
      const others = Object.keys(node).filter(
        (key) =>
          key !== '$ref' && !ANNOTATIONS.has(key) && key !== '$defs' && key !== 'definitions',
      );
      if (others.length > 0) return fail(path, `'$ref' beside '${quoted(others[0] ?? '')}'`);
      return true;
    }
    const anyOf = node['anyOf'];
    if (anyOf !== undefined) {
      if (!Array.isArray(anyOf) || anyOf.length === 0)
        return fail(path, "an 'anyOf' that is not a non-empty list");
      return anyOf.every((branch, index) => walk(branch, `${path}.anyOf[${index}]`, depth + 1));
    }
    const type = node['type'];
    const types = Array.isArray(type) ? type : [type];
    if (type === undefined && node['enum'] === undefined && node['const'] === undefined)
      return fail(path, "a schema without 'type', 'enum' or 'const'");
    if (type !== undefined && !types.every((item) => TYPES.has(item as string)))
      return fail(path, `the type ${JSON.stringify(type)}`);
    const format = node['format'];
    if (format !== undefined && !STRICT_FORMATS.has(format as string))
      return fail(path, `the format ${JSON.stringify(format)}`);
    const values = node['enum'];
    if (values !== undefined) {
      if (!Array.isArray(values) || values.length === 0)
        return fail(path, "an 'enum' that is not a non-empty list");
      enumValues += values.length;
      let length = 0;
      for (const value of values) {
        countText(value);
        if (typeof value === 'string') length += value.length;
      }
      if (
        values.length > STRICT_LIMITS.largeEnum &&
        values.every((value) => typeof value === 'string') &&
        length > STRICT_LIMITS.largeEnumCharacters
      )
        return fail(
          path,
          `an enum of ${values.length} values totalling ${length} characters (over ${STRICT_LIMITS.largeEnumCharacters})`,
        );
    }
    if (Object.hasOwn(node, 'const')) countText(node['const']);
    if (types.includes('object')) {
      if (types.length !== 1 && (types.length !== 2 || !types.includes('null')))
        return fail(path, "a type list with 'object' and another type than 'null'");
      if (node['additionalProperties'] !== false)
        return fail(path, "an object without 'additionalProperties: false'");
      const props = node['properties'];
      if (!isRecord(props)) return fail(path, "an object without 'properties'");
      const keys = Object.keys(props);
      properties += keys.length;
      // Refused here, before the walk: an oversized schema costs no more than the limit.
      if (properties > STRICT_LIMITS.properties)
        return fail(
          '',
          `more than ${STRICT_LIMITS.properties} object properties (${properties} so far)`,
        );
      const required = node['required'];
      // A set, not `includes`: an object of n properties costs O(n), not O(n²).
      const named = Array.isArray(required) ? new Set(required) : undefined;
      if (named === undefined || named.size !== keys.length || !keys.every((key) => named.has(key)))
        return fail(path, 'an object whose properties are not all required');
      for (const key of keys) {
        characters += key.length;
        if (!walk(props[key], joinPath(path, key), depth + 1)) return false;
      }
    } else if (node['properties'] !== undefined || node['required'] !== undefined)
      return fail(path, "object keywords on a schema that is not type 'object'");
    if (types.includes('array')) {
      if (types.length !== 1 && (types.length !== 2 || !types.includes('null')))
        return fail(path, "a type list with 'array' and another type than 'null'");
      if (node['items'] === undefined) return fail(path, "an array without 'items'");
      return walk(node['items'], `${path}[]`, depth + 1);
    }
    if (node['items'] !== undefined)
      return fail(path, "'items' on a schema that is not type 'array'");
    return true;
  };

  walk(schema, '', 0);
  if (problem !== undefined) return problem;
  if (enumValues > STRICT_LIMITS.enumValues)
    return {
      path: '<root>',
      message: `${enumValues} enum values (over ${STRICT_LIMITS.enumValues})`,
    };
  if (characters > STRICT_LIMITS.characters)
    return {
      path: '<root>',
      message: `${characters} characters of names and values (over ${STRICT_LIMITS.characters})`,
    };
  const nesting = objectNesting(schema);
  if (nesting > STRICT_LIMITS.nesting)
    return {
      path: '<root>',
      message: `${nesting} levels of object nesting (over ${STRICT_LIMITS.nesting})`,
    };
  return undefined;
}

// Levels of nested objects, following `$ref`s; a recursive definition counts once.
function objectNesting(root: Record<string, unknown>): number {
  const memo = new Map<string, number>();
  const active = new Set<string>();
  const depthOf = (node: unknown): number => {
    if (!isRecord(node)) return 0;
    const ref = node['$ref'];
    if (ref === '#') return 0; // root recursion: the root is counted once
    if (typeof ref === 'string') {
      const name = ref;
      const known = memo.get(name);
      if (known !== undefined) return known;
      if (active.has(name)) return 0;
      active.add(name);
      const depth = depthOf(resolvePointer(root, ref));
      active.delete(name);
      memo.set(name, depth);
      return depth;
    }
    let inner = 0;
    const anyOf = node['anyOf'];
    if (Array.isArray(anyOf)) for (const branch of anyOf) inner = Math.max(inner, depthOf(branch));
    if (node['items'] !== undefined) inner = Math.max(inner, depthOf(node['items']));
    const props = node['properties'];
    if (isRecord(props)) {
      let deepest = 0;
      for (const child of Object.values(props)) deepest = Math.max(deepest, depthOf(child));
      inner = Math.max(inner, deepest + 1);
    }
    return inner;
  };
  return depthOf(root);
}
