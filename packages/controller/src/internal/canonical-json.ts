// One open array or object on the walk's explicit stack: the walk never recurses, so no depth
// of nesting can overflow the call stack.
type Frame =
  | { readonly kind: 'array'; readonly value: readonly unknown[]; index: number }
  | {
      readonly kind: 'object';
      readonly value: Record<string, unknown>;
      readonly keys: readonly string[];
      index: number;
    };

/** The text of a JSON primitive, `null` for an object or array, `undefined` if not JSON data. */
function primitive(value: unknown): string | null | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'object':
      return value === null ? 'null' : null;
    default:
      return undefined;
  }
}

/**
 * Canonical JSON of `value`: object keys sorted, no whitespace, so equal data always gives the
 * same text. `undefined` when the value is not JSON data (a function, a symbol, a bigint, a
 * non-finite number, a cycle, or an object that is not a plain object or array). Iterative, in
 * time linear in the size of the value, whatever its depth.
 */
export function canonicalJson(value: unknown): string | undefined {
  const out: string[] = [];
  const stack: Frame[] = [];
  // Values on the current path: one seen again there is a cycle; one on another branch is shared.
  const path = new Set<object>();
  let next: unknown = value;
  let pending = true;
  for (;;) {
    if (pending) {
      const text = primitive(next);
      if (text === undefined) return undefined;
      if (text !== null) out.push(text);
      else {
        const object = next as object;
        if (path.has(object)) return undefined;
        path.add(object);
        if (Array.isArray(object)) {
          out.push('[');
          stack.push({ kind: 'array', value: object, index: 0 });
        } else {
          const proto = Object.getPrototypeOf(object);
          if (proto !== Object.prototype && proto !== null) return undefined;
          const record = object as Record<string, unknown>;
          // As in JSON.stringify, a property holding undefined is absent.
          const keys = Object.keys(record)
            .filter((key) => record[key] !== undefined)
            .sort();
          out.push('{');
          stack.push({ kind: 'object', value: record, keys, index: 0 });
        }
      }
      pending = false;
    }
    const frame = stack[stack.length - 1];
    if (frame === undefined) return out.join('');
    if (frame.kind === 'array') {
      if (frame.index < frame.value.length) {
        if (frame.index > 0) out.push(',');
        next = frame.value[frame.index++];
        pending = true;
        continue;
      }
      out.push(']');
    } else {
      if (frame.index < frame.keys.length) {
        const key = frame.keys[frame.index++] as string;
        out.push(`${frame.index > 1 ? ',' : ''}${JSON.stringify(key)}:`);
        next = frame.value[key];
        pending = true;
        continue;
      }
      out.push('}');
    }
    stack.pop();
    path.delete(frame.value);
  }
}
