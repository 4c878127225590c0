import { clipText } from './refusal-text.ts';

/** Deepest nesting a stored value may have; JSON parsers and PostgreSQL recurse on it. */
export const STORABLE_DEPTH = 256;

/** Why a value cannot be stored, and where (a path such as `params.steps[2].title`). */
export interface StorableProblem {
  /** The path of the offending part, empty for the value itself. */
  readonly path: string;
  /** The rule it breaks, as a sentence fragment (`must not contain U+0000`). */
  readonly rule: string;
}

// U+0000 (PostgreSQL text cannot hold it) or any surrogate (checked in pairs below).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is the point
const SUSPECT = /[\u0000\ud800-\udfff]/;

/** The rule a string breaks, or undefined when every store can hold it exactly. */
export function stringProblem(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return 'must not contain U+0000';
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return 'must not contain a lone surrogate';
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return 'must not contain a lone surrogate';
    }
  }
  return undefined;
}

const keyPath = (path: string, key: string): string => {
  const safe = clipText(key, 80);
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(safe)
    ? `${path}${path === '' ? '' : '.'}${safe}`
    : `${path}[${JSON.stringify(safe)}]`;
};

/**
 * Why `value` would not survive `JSON.stringify`, a store and `JSON.parse` exactly, or
 * undefined when it would. Allowed: null, booleans, finite numbers, strings without U+0000 or
 * lone surrogates, arrays without holes or `undefined`, and plain objects (whose `undefined`
 * properties JSON drops, as reading them back as absent does) nested at most
 * {@link STORABLE_DEPTH} deep. Iterative and linear in the size of the value.
 */
export function storableProblem(value: unknown): StorableProblem | undefined {
  // Most values are fine: a walk that builds no paths says so; only a failure pays for them.
  return storable(value, 0) ? undefined : locate(value);
}

/**
 * True when every store can hold `value` exactly (the rules of {@link storableProblem}).
 * Recursive, but never deeper than {@link STORABLE_DEPTH}, where it stops and says false.
 */
function storable(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'string':
      return !SUSPECT.test(value) || stringProblem(value) === undefined;
    case 'object': {
      if (value === null) return true;
      if (depth >= STORABLE_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const child: unknown = value[i];
          if (child === undefined || !(i in value) || !storable(child, depth + 1)) return false;
        }
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key of Object.keys(value)) {
        if (SUSPECT.test(key) && stringProblem(key) !== undefined) return false;
        const child = (value as Record<string, unknown>)[key];
        if (child !== undefined && !storable(child, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** The first problem of a value {@link storable} refused, with its path. Iterative. */
function locate(value: unknown): StorableProblem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: current, path, depth } = item;
    switch (typeof current) {
      case 'boolean':
        continue;
      case 'number':
        if (!Number.isFinite(current)) return { path, rule: 'must be a finite number' };
        continue;
      case 'string': {
        const rule = stringProblem(current);
        if (rule !== undefined) return { path, rule };
        continue;
      }
      case 'object': {
        if (current === null) continue;
        if (depth >= STORABLE_DEPTH)
          return { path, rule: `is nested too deep (more than ${STORABLE_DEPTH} levels)` };
        if (Array.isArray(current)) {
          for (let i = current.length - 1; i >= 0; i--) {
            if (!(i in current) || current[i] === undefined)
              return { path: `${path}[${i}]`, rule: 'must not be undefined' };
            stack.push({ value: current[i], path: `${path}[${i}]`, depth: depth + 1 });
          }
          continue;
        }
        const proto = Object.getPrototypeOf(current);
        if (proto !== Object.prototype && proto !== null)
          return { path, rule: 'must be plain JSON data (an object, array, string, ...)' };
        for (const key of Object.keys(current)) {
          const rule = stringProblem(key);
          if (rule !== undefined) return { path: keyPath(path, key), rule: `key ${rule}` };
          const child = (current as Record<string, unknown>)[key];
          if (child !== undefined)
            stack.push({ value: child, path: keyPath(path, key), depth: depth + 1 });
        }
        continue;
      }
      default:
        return { path, rule: `must be JSON data, not ${typeof current}` };
    }
  }
  return undefined;
}
