import { isRecord } from '@plankit/core/internal-unstable';
import { copy, equalJson, joinPath, type Node, quoted, refuse, setOwn } from './schema-node.ts';
import { BOUNDS, COUPLED, isAnnotation } from './strict-keywords.ts';

// Exact rewrites of one schema or two put side by side: the building blocks of `allOf`
// merging, `oneOf` to `anyOf`, and a closed record.

/**
 * Intersects two schemas by putting their keywords side by side, which is exact when no
 * keyword appears in both with different values and no coupled pair is split between them.
 * Annotations of `overlay` win.
 */
export function merge(base: Node, overlay: Node, path: string, keyword: string): Node {
  const out = copy(base);
  for (const key of Object.keys(overlay)) {
    if (overlay[key] === undefined) continue;
    if (isAnnotation(key) || !Object.hasOwn(out, key)) setOwn(out, key, overlay[key]);
    else if (key === 'type') {
      // Two types intersect: `['object', 'null']` beside `'object'` is `'object'`.
      const type = intersectTypes(out[key], overlay[key]);
      if (type === undefined) refuse(path, `'${keyword}' beside a conflicting 'type'`);
      out[key] = type;
    } else if (key === 'enum' && Array.isArray(out[key]) && Array.isArray(overlay[key])) {
      const base = out[key] as unknown[];
      const both = (overlay[key] as unknown[]).filter((value) =>
        base.some((item) => equalJson(item, value)),
      );
      if (both.length === 0) refuse(path, `'${keyword}' beside a conflicting 'enum'`);
      out[key] = both;
    } else if (key === 'required' && Array.isArray(out[key]) && Array.isArray(overlay[key])) {
      out[key] = [...new Set([...(out[key] as unknown[]), ...(overlay[key] as unknown[])])];
    } else if (
      BOUNDS.has(key) &&
      typeof out[key] === 'number' &&
      typeof overlay[key] === 'number'
    ) {
      // Two bounds of one kind: the tighter holds for both.
      const pick = BOUNDS.get(key) === 'min' ? Math.max : Math.min;
      out[key] = pick(out[key] as number, overlay[key] as number);
    } else if (!equalJson(out[key], overlay[key]))
      refuse(path, `'${keyword}' beside a conflicting '${key}'`);
  }
  for (const [a, b] of COUPLED) {
    const split =
      (Object.hasOwn(base, a) && Object.hasOwn(overlay, b) && !Object.hasOwn(base, b)) ||
      (Object.hasOwn(base, b) && Object.hasOwn(overlay, a) && !Object.hasOwn(overlay, b));
    if (split) refuse(path, `'${keyword}' with '${a}' and '${b}' on different sides`);
  }
  return out;
}

/** The types two `type` keywords both allow, or `undefined` when no value has both. */
export function intersectTypes(a: unknown, b: unknown): unknown {
  const left = Array.isArray(a) ? a : [a];
  const right = Array.isArray(b) ? b : [b];
  const both: unknown[] = [];
  const add = (type: unknown) => {
    if (!both.includes(type)) both.push(type);
  };
  for (const type of left) {
    if (right.includes(type)) add(type);
    else if (type === 'integer' && right.includes('number')) add('integer');
    else if (type === 'number' && right.includes('integer')) add('integer');
  }
  if (both.length === 0) return undefined;
  return both.length === 1 ? both[0] : both;
}

/**
 * Whether a schema holds only annotations and definitions: it constrains nothing, and a
 * `$ref` into its definitions is resolved by its pointer, so dropping it changes nothing.
 */
export function definitionsOnly(node: Node): boolean {
  return Object.keys(node).every(
    (key) =>
      isAnnotation(key) || ((key === '$defs' || key === 'definitions') && isRecord(node[key])),
  );
}

/** Whether a schema names any of `keys`. */
export const hasAnyKey = (node: Node, keys: readonly string[]): boolean =>
  keys.some((key) => Object.hasOwn(node, key));

/** Whether a `type` is a list of exactly the `expected` types, in any order. */
export const sameTypes = (type: unknown, expected: readonly string[]): boolean =>
  Array.isArray(type) &&
  type.length === expected.length &&
  expected.every((item) => type.includes(item));

/** Whether a `type` is `'object'` or `['object', 'null']`: what object `allOf`s merge. */
export const isObjectType = (type: unknown): boolean =>
  type === 'object' ||
  (Array.isArray(type) && type.length === 2 && type.includes('object') && type.includes('null'));

/** The names a `propertyNames` of only a string `enum` or `const` allows, else `undefined`. */
export function literalNames(schema: unknown): string[] | undefined {
  if (!isRecord(schema)) return undefined;
  for (const key of Object.keys(schema))
    if (!['enum', 'const', 'type'].includes(key) && !isAnnotation(key)) return undefined;
  if (schema['type'] !== undefined && schema['type'] !== 'string') return undefined;
  const values = Object.hasOwn(schema, 'const') ? [schema['const']] : schema['enum'];
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string'))
    return undefined;
  return values as string[];
}

/**
 * A record over a closed set of keys (zod's `z.record(z.enum([...]), value)`) as the object it
 * is: each allowed name a property (its own schema, or `additionalProperties`), nothing else.
 */
export function closedRecord(node: Node, names: readonly string[], path: string): Node {
  const { propertyNames: _names, additionalProperties: extra, properties, ...rest } = node;
  const own = isRecord(properties) ? properties : {};
  const allowed = new Set(names);
  const required = Array.isArray(node['required']) ? node['required'] : [];
  for (const key of required)
    if (typeof key === 'string' && !allowed.has(key))
      refuse(joinPath(path, key), `a required property '${quoted(key)}' 'propertyNames' excludes`);
  const merged: Node = {};
  for (const name of allowed) {
    const schema = Object.hasOwn(own, name) ? own[name] : (extra ?? true);
    if (schema !== false) setOwn(merged, name, schema);
  }
  return {
    ...rest,
    type: rest['type'] ?? 'object',
    properties: merged,
    additionalProperties: false,
  };
}

/** Whether a `oneOf` is an `anyOf`: one required property tells its object branches apart. */
export function isDiscriminated(branches: readonly unknown[]): boolean {
  if (branches.length < 2) return true;
  const first = branches[0];
  if (!isRecord(first) || !Array.isArray(first['required'])) return false;
  const literals = (branch: unknown, key: string): unknown[] | undefined => {
    if (!isRecord(branch) || !Array.isArray(branch['required'])) return undefined;
    if (!branch['required'].includes(key)) return undefined;
    const property = isRecord(branch['properties']) ? branch['properties'][key] : undefined;
    if (!isRecord(property)) return undefined;
    if (Object.hasOwn(property, 'const')) return [property['const']];
    return Array.isArray(property['enum']) ? property['enum'] : undefined;
  };
  return first['required'].some((key) => {
    if (typeof key !== 'string') return false;
    const seen = new Set<string>();
    for (const branch of branches) {
      const values = literals(branch, key);
      if (values === undefined) return false;
      for (const value of values) {
        const text = JSON.stringify(value);
        if (seen.has(text)) return false;
        seen.add(text);
      }
    }
    return true;
  });
}
