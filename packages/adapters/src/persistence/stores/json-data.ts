/** Why a value is not JSON data: where, and the rule it breaks. */
export interface JsonProblem {
  /** A path from the argument, such as `events[0].data.items[2]`. */
  readonly path: string;
  /** The rule broken, as the end of a sentence: `is NaN; JSON has no such number`. */
  readonly rule: string;
}

/** Options of {@link toJsonText}. */
export interface JsonTextOptions {
  /**
   * Also refuse U+0000 and lone surrogates in strings and keys: PostgreSQL's jsonb cannot hold
   * them, and every store applies the jsonb rule to snapshots alike.
   */
  readonly jsonb?: boolean;
}

const MAX_KEY_IN_PATH = 60;
// In /u mode a well-formed surrogate pair is one astral code point, so only lone halves match.
const NOT_JSONB_TEXT = /[\0\p{Cs}]/u;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function keyPath(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return `${path}.${key}`;
  const shown = key.length > MAX_KEY_IN_PATH ? `${key.slice(0, MAX_KEY_IN_PATH)}...` : key;
  return `${path}[${JSON.stringify(shown)}]`;
}

function describe(value: object): string {
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a prototype';
}

class Walker {
  readonly #jsonb: boolean;
  readonly #ancestors = new Set<object>();

  constructor(jsonb: boolean) {
    this.#jsonb = jsonb;
  }

  check(value: unknown, path: string): JsonProblem | undefined {
    switch (typeof value) {
      case 'string':
        return this.#jsonb && NOT_JSONB_TEXT.test(value)
          ? { path, rule: 'holds U+0000 or a lone surrogate, which jsonb cannot store' }
          : undefined;
      case 'boolean':
        return undefined;
      case 'number':
        return Number.isFinite(value)
          ? undefined
          : { path, rule: `is ${value}; JSON has only finite numbers` };
      case 'object':
        return value === null ? undefined : this.#object(value, path);
      case 'undefined':
        return { path, rule: 'is undefined; JSON has no such value' };
      default:
        return { path, rule: `is a ${typeof value}; JSON has no such value` };
    }
  }

  #object(value: object, path: string): JsonProblem | undefined {
    if (this.#ancestors.has(value)) return { path, rule: 'refers back to itself (a cycle)' };
    if (Object.getOwnPropertySymbols(value).length > 0) {
      return { path, rule: 'has symbol keys, which JSON drops' };
    }
    this.#ancestors.add(value);
    try {
      if (Array.isArray(value)) return this.#array(value, path);
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        return { path, rule: `is ${describe(value)}, not a plain object` };
      }
      for (const key of Object.keys(value)) {
        const child = keyPath(path, key);
        if (this.#jsonb && NOT_JSONB_TEXT.test(key)) {
          return { path: child, rule: 'is a key holding U+0000 or a lone surrogate' };
        }
        const item = (value as Record<string, unknown>)[key];
        // JSON.stringify drops such properties; they read back as absent.
        if (item === undefined) continue;
        const problem = this.check(item, child);
        if (problem !== undefined) return problem;
      }
      return undefined;
    } finally {
      this.#ancestors.delete(value);
    }
  }

  #array(value: readonly unknown[], path: string): JsonProblem | undefined {
    if (Object.getPrototypeOf(value) !== Array.prototype) {
      return { path, rule: `is ${describe(value)}, not a plain array` };
    }
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return { path: `${path}[${i}]`, rule: 'is a hole in a sparse array' };
      const problem = this.check(value[i], `${path}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
}

/**
 * Serializes `value` when it is JSON data that reads back deep-equal (except properties
 * holding `undefined`, which JSON drops), or says where it is not.
 */
export function toJsonText(
  value: unknown,
  path: string,
  options: JsonTextOptions = {},
): { readonly text: string } | { readonly problem: JsonProblem } {
  try {
    const problem = new Walker(options.jsonb === true).check(value, path);
    if (problem !== undefined) return { problem };
    return { text: JSON.stringify(value) };
  } catch (cause) {
    if (cause instanceof RangeError) return { problem: { path, rule: 'is nested too deeply' } };
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { problem: { path, rule: `cannot be read: ${reason}` } };
  }
}
