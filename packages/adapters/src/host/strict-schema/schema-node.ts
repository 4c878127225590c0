import { clipText, isRecord } from '@plankit/core/internal-unstable';
import { AdapterError } from '../../adapter-error.ts';

/** A JSON Schema object as the converter reads and builds it. */
export type Node = Record<string, unknown>;

/** Reads one strict-mode value back into the shape the original schema accepts. */
export type Restore = (value: unknown) => unknown;

/** A converted schema and the way back for its values. */
export interface Converted {
  readonly schema: Node;
  readonly restore: Restore;
}

/** The restore of a schema whose strict values are its values already. */
export const identity: Restore = (value) => value;

/**
 * Refuses a schema strict mode cannot express, naming the rule and the path. Names and paths
 * come from the schema: each is clipped so the whole text stays under 2,000 characters,
 * however long the property names.
 */
export function refuse(path: string, message: string): never {
  throw new AdapterError(
    'schema_unsupported',
    `OpenAI strict mode cannot express ${clipText(message, 900)} at ${clipText(path, 900) || '<root>'}.`,
    { field: path },
  );
}

/** A name from the schema as a refusal quotes it: at most 80 characters. */
export const quoted = (name: string): string => clipText(name, 80);

/** The path of a property or keyword below `path`: `a.b`, `$defs.Name`. */
export const joinPath = (path: string, key: string): string =>
  path === '' ? key : `${path}.${key}`;

/** Sets an own enumerable property, even one named `__proto__`. */
export function setOwn(target: Node, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * A shallow copy of a schema without the keywords `skip` names. A keyword whose value is
 * `undefined` is absent, as in the JSON the schema stands for.
 */
export function copy(source: Node, skip?: (key: string) => boolean): Node {
  const out: Node = {};
  for (const key of Object.keys(source))
    if (source[key] !== undefined && !skip?.(key)) setOwn(out, key, source[key]);
  return out;
}

/**
 * A copy of `value` when it is JSON data (null, booleans, finite numbers, strings, arrays and
 * plain objects, at most 64 levels deep); refused, naming the path, otherwise. For annotation
 * values (`examples`) the output carries.
 */
export function jsonCopy(value: unknown, path: string, depth = 0): unknown {
  if (depth > 64) refuse(path, "'examples' nested more than 64 levels deep");
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((item) => jsonCopy(item, path, depth + 1));
  if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Node = {};
    for (const key of Object.keys(value))
      if (value[key] !== undefined) setOwn(out, key, jsonCopy(value[key], path, depth + 1));
    return out;
  }
  return refuse(path, "'examples' that are not JSON data");
}

/** JSON with object keys sorted: equal for schemas that differ only in key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isRecord(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}

/** Whether two schemas or values are the same JSON, key order aside. */
export const equalJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
