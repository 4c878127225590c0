import { isRecord } from '@plankit/core/internal-unstable';

const MAX_DEPTH = 256;

/**
 * Looks up the schema a `$ref` of the schema being matched points to (`#` is the root), or
 * `undefined` when it points to none.
 */
export type StrictDefinitions = (ref: string) => unknown;

function typeMatches(type: unknown, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    default:
      return false;
  }
}

function equalJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      equalJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function patternMatches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return true;
  }
}

function matches(schema: unknown, value: unknown, defs: StrictDefinitions, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (typeof schema === 'boolean') return schema;
  if (typeof schema !== 'object' || schema === null) return false;
  const node = schema as Record<string, unknown>;
  const ref = node['$ref'];
  if (typeof ref === 'string') {
    const target = defs(ref);
    if (target === undefined || !matches(target, value, defs, depth + 1)) return false;
  }
  const type = node['type'];
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (!types.some((candidate) => typeMatches(candidate, value))) return false;
  }
  const enumValues = node['enum'];
  if (Array.isArray(enumValues) && !enumValues.some((item) => equalJson(item, value))) return false;
  if (Object.hasOwn(node, 'const') && !equalJson(node['const'], value)) return false;
  const anyOf = node['anyOf'];
  if (Array.isArray(anyOf) && !anyOf.some((branch) => matches(branch, value, defs, depth + 1)))
    return false;
  if (typeof value === 'string') {
    const min = node['minLength'];
    const max = node['maxLength'];
    const pattern = node['pattern'];
    if (typeof min === 'number' && codePoints(value) < min) return false;
    if (typeof max === 'number' && codePoints(value) > max) return false;
    if (typeof pattern === 'string' && !patternMatches(pattern, value)) return false;
  }
  if (typeof value === 'number') {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
    if (typeof minimum === 'number' && value < minimum) return false;
    if (typeof maximum === 'number' && value > maximum) return false;
    if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return false;
    if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return false;
    if (typeof multipleOf === 'number' && multipleOf > 0) {
      const ratio = value / multipleOf;
      if (Math.abs(ratio - Math.round(ratio)) > 1e-9) return false;
    }
  }
  if (Array.isArray(value)) {
    const { minItems, maxItems, items } = node;
    if (typeof minItems === 'number' && value.length < minItems) return false;
    if (typeof maxItems === 'number' && value.length > maxItems) return false;
    if (items !== undefined && !value.every((item) => matches(items, item, defs, depth + 1)))
      return false;
  }
  if (isRecord(value)) {
    const record = value;
    const properties = (node['properties'] ?? {}) as Record<string, unknown>;
    const required = node['required'];
    if (Array.isArray(required) && !required.every((key) => Object.hasOwn(record, key)))
      return false;
    for (const key of Object.keys(record)) {
      if (Object.hasOwn(properties, key)) {
        if (!matches(properties[key], record[key], defs, depth + 1)) return false;
      } else if (node['additionalProperties'] === false) return false;
    }
  }
  return true;
}

/**
 * Whether a value satisfies a schema of the strict subset (`type`, `enum`, `const`, `anyOf`,
 * `$ref` into `$defs` or to the root `#`, closed objects, `items`, and the string, number and array bounds).
 * `format` is not checked. Used to pick the `anyOf` branch a strict-mode value belongs to.
 */
export function matchesStrictSchema(
  schema: unknown,
  value: unknown,
  defs: StrictDefinitions,
): boolean {
  return matches(schema, value, defs, 0);
}
