// Thrown inside the walk and caught at the top: the value is not JSON data.
const NOT_JSON: unique symbol = Symbol('not JSON');

function walk(value: unknown, path: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw NOT_JSON;
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw NOT_JSON;
  }
  if (value === null) return 'null';
  // A value seen on the current path is a cycle; one seen on another branch is only shared.
  if (path.has(value)) throw NOT_JSON;
  path.add(value);
  let out: string;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let i = 0; i < value.length; i++) parts.push(walk(value[i], path));
    out = `[${parts.join(',')}]`;
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw NOT_JSON;
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      // As in JSON.stringify, a property holding undefined is absent.
      if (item === undefined) continue;
      parts.push(`${JSON.stringify(key)}:${walk(item, path)}`);
    }
    out = `{${parts.join(',')}}`;
  }
  path.delete(value);
  return out;
}

/**
 * Canonical JSON of `value`: object keys sorted, no whitespace, so equal data always gives the
 * same text. `undefined` when the value is not JSON data (a function, a symbol, a bigint, a
 * non-finite number, a cycle, or an object that is not a plain object or array).
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return walk(value, new Set());
  } catch (error) {
    if (error === NOT_JSON) return undefined;
    throw error;
  }
}
