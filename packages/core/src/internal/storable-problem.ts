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

/** A problem {@link problemIn} found: the keys and indexes leading to it, innermost first. */
interface Found {
  readonly at: (string | number)[];
  readonly rule: string;
}

/**
 * Why `value` would not survive `JSON.stringify`, a store and `JSON.parse` exactly, or
 * undefined when it would. Allowed: null, booleans, finite numbers, strings without U+0000 or
 * lone surrogates, arrays without holes or `undefined`, and plain objects (whose `undefined`
 * properties JSON drops, as reading them back as absent does) nested at most
 * {@link STORABLE_DEPTH} deep. Linear in the size of the value.
 */
export function storableProblem(value: unknown): StorableProblem | undefined {
  const found = problemIn(value, 0);
  if (found === undefined) return undefined;
  // Most values are fine: the walk builds no paths, only a failure pays for one.
  let path = '';
  for (let i = found.at.length - 1; i >= 0; i--) {
    const part = found.at[i] as string | number;
    path = typeof part === 'number' ? `${path}[${part}]` : keyPath(path, part);
  }
  return { path, rule: found.rule };
}

/**
 * The first problem of `value` (the rules of {@link storableProblem}), or undefined. Each
 * array or object is checked itself (holes, keys) before its children. Recursive,
 * but never deeper than {@link STORABLE_DEPTH}, where it stops.
 */
function problemIn(value: unknown, depth: number): Found | undefined {
  let rule: string | undefined;
  switch (typeof value) {
    case 'boolean':
      return undefined;
    case 'number':
      if (Number.isFinite(value)) return undefined;
      rule = 'must be a finite number';
      break;
    case 'string':
      rule = stringProblem(value);
      if (rule === undefined) return undefined;
      break;
    case 'object': {
      if (value === null) return undefined;
      if (depth >= STORABLE_DEPTH) {
        rule = `is nested too deep (more than ${STORABLE_DEPTH} levels)`;
        break;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--)
          if (!(i in value) || value[i] === undefined)
            return { at: [i], rule: 'must not be undefined' };
        for (let i = 0; i < value.length; i++) {
          const found = problemIn(value[i], depth + 1);
          if (found !== undefined) {
            found.at.push(i);
            return found;
          }
        }
        return undefined;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        rule = 'must be plain JSON data (an object, array, string, ...)';
        break;
      }
      const keys = Object.keys(value);
      for (const key of keys) {
        const keyRule = stringProblem(key);
        if (keyRule !== undefined) return { at: [key], rule: `key ${keyRule}` };
      }
      // Children last key first: the order of the path-building walk this one replaced.
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const child = (value as Record<string, unknown>)[key];
        const found = child === undefined ? undefined : problemIn(child, depth + 1);
        if (found !== undefined) {
          found.at.push(key);
          return found;
        }
      }
      return undefined;
    }
    default:
      rule = `must be JSON data, not ${typeof value}`;
  }
  return { at: [], rule };
}
