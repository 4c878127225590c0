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
 * The kinds of value a walk refuses, which {@link StorableRules.rule} words: a number that is
 * not finite, a type JSON lacks (`undefined` itself, a function, a bigint, a symbol), an array
 * item that is `undefined` or a hole, an object or array with another prototype, symbol keys,
 * a cycle, and nesting past {@link StorableRules.depth}.
 */
export type StorableKind =
  | 'number'
  | 'type'
  | 'item_undefined'
  | 'hole'
  | 'not_plain_object'
  | 'not_plain_array'
  | 'symbol_keys'
  | 'cycle'
  | 'too_deep';

/**
 * How a walk words and bounds what it refuses: core's own rules by default; a store passes
 * its rules to word its refusals its own way over the same walk.
 */
export interface StorableRules {
  /** Deepest nesting allowed; past it the walk stops with `too_deep`. */
  readonly depth: number;
  /**
   * Also refuse cycles, symbol keys and arrays with another prototype, which a walk bounded
   * by its depth need not tell apart.
   */
  readonly exact: boolean;
  /** The rule a string breaks (`key` when it is an object key), or undefined. */
  text(text: string, key: boolean): string | undefined;
  /** The rule broken by `value`, a value of the given kind. */
  rule(kind: StorableKind, value: unknown): string;
}

const CORE_RULES: StorableRules = {
  depth: STORABLE_DEPTH,
  exact: false,
  text: (text, key) => {
    const rule = stringProblem(text);
    return rule !== undefined && key ? `key ${rule}` : rule;
  },
  rule: (kind, value) => {
    switch (kind) {
      case 'number':
        return 'must be a finite number';
      case 'item_undefined':
      case 'hole':
        return 'must not be undefined';
      case 'too_deep':
        return `is nested too deep (more than ${STORABLE_DEPTH} levels)`;
      case 'not_plain_object':
      case 'not_plain_array':
      case 'symbol_keys':
      case 'cycle':
        return 'must be plain JSON data (an object, array, string, ...)';
      case 'type':
        return `must be JSON data, not ${typeof value}`;
      default: {
        const unknown: never = kind;
        return unknown;
      }
    }
  },
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
 *
 * @param rules - how problems are worded and bounded; core's rules (above) by default
 */
export function storableProblem(
  value: unknown,
  rules: StorableRules = CORE_RULES,
): StorableProblem | undefined {
  const found = problemIn(value, 0, rules, rules.exact ? new Set() : undefined);
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
 * but never deeper than the rules' depth, where it stops. `ancestors` holds the arrays and
 * objects being walked when the rules refuse cycles.
 */
function problemIn(
  value: unknown,
  depth: number,
  rules: StorableRules,
  ancestors: Set<object> | undefined,
): Found | undefined {
  let rule: string | undefined;
  switch (typeof value) {
    case 'boolean':
      return undefined;
    case 'number':
      if (Number.isFinite(value)) return undefined;
      rule = rules.rule('number', value);
      break;
    case 'string':
      rule = rules.text(value, false);
      if (rule === undefined) return undefined;
      break;
    case 'object': {
      if (value === null) return undefined;
      if (depth >= rules.depth) {
        rule = rules.rule('too_deep', value);
        break;
      }
      if (ancestors !== undefined) {
        rule = exactProblem(value, ancestors, rules);
        if (rule !== undefined) break;
        ancestors.add(value);
      }
      const found = Array.isArray(value)
        ? arrayProblem(value, depth, rules, ancestors)
        : objectProblem(value, depth, rules, ancestors);
      ancestors?.delete(value);
      return found;
    }
    default:
      rule = rules.rule('type', value);
  }
  return { at: [], rule };
}

/** What exact rules refuse of an array or object itself: a cycle, symbol keys, a prototype. */
function exactProblem(
  value: object,
  ancestors: Set<object>,
  rules: StorableRules,
): string | undefined {
  if (ancestors.has(value)) return rules.rule('cycle', value);
  if (Object.getOwnPropertySymbols(value).length > 0) return rules.rule('symbol_keys', value);
  if (Array.isArray(value) && Object.getPrototypeOf(value) !== Array.prototype)
    return rules.rule('not_plain_array', value);
  return undefined;
}

function arrayProblem(
  value: readonly unknown[],
  depth: number,
  rules: StorableRules,
  ancestors: Set<object> | undefined,
): Found | undefined {
  for (let i = value.length - 1; i >= 0; i--) {
    if (!(i in value)) return { at: [i], rule: rules.rule('hole', undefined) };
    if (value[i] === undefined) return { at: [i], rule: rules.rule('item_undefined', undefined) };
  }
  for (let i = 0; i < value.length; i++) {
    const found = problemIn(value[i], depth + 1, rules, ancestors);
    if (found !== undefined) {
      found.at.push(i);
      return found;
    }
  }
  return undefined;
}

function objectProblem(
  value: object,
  depth: number,
  rules: StorableRules,
  ancestors: Set<object> | undefined,
): Found | undefined {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    return { at: [], rule: rules.rule('not_plain_object', value) };
  }
  const keys = Object.keys(value);
  for (const key of keys) {
    const keyRule = rules.text(key, true);
    if (keyRule !== undefined) return { at: [key], rule: keyRule };
  }
  // Children last key first: the order of the path-building walk this one replaced.
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i] as string;
    const child = (value as Record<string, unknown>)[key];
    const found = child === undefined ? undefined : problemIn(child, depth + 1, rules, ancestors);
    if (found !== undefined) {
      found.at.push(key);
      return found;
    }
  }
  return undefined;
}

/**
 * The first string (or object key) in `value` that no store can hold exactly, by
 * {@link stringProblem} (U+0000 or a lone surrogate; other control characters are storable and
 * stay, and renderers escape them), with its path under `root` (`input.entries[2].content`).
 * Undefined when every string is storable.
 *
 * The text-only walk of {@link storableProblem}'s rules, for values that are not JSON data as a
 * whole (options holding callbacks, a tool's parsed input with class instances): only text is
 * judged, other values and objects with another prototype are passed over, since types, sizes
 * and depth are each caller's own checks. Iterative, and each object is visited once, so deep,
 * shared or cyclic input costs time linear in its size and never overflows the stack.
 */
export function unstorableText(value: unknown, root: string): StorableProblem | undefined {
  // Storable text is the rule, so a walk that builds no paths decides; only a refusal pays
  // for naming the field.
  return allTextStorable(value) ? undefined : locateText(value, root);
}

/** Plain objects and arrays a text walk looks into; anything else holds no text it judges. */
function isWalked(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function allTextStorable(value: unknown): boolean {
  if (typeof value === 'string') return stringProblem(value) === undefined;
  if (typeof value !== 'object' || value === null) return true;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    if (typeof current === 'string') {
      if (stringProblem(current) !== undefined) return false;
      continue;
    }
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (!isWalked(current)) continue;
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      if (stringProblem(key) !== undefined) return false;
      stack.push((current as Record<string, unknown>)[key]);
    }
  }
  return true;
}

function locateText(value: unknown, root: string): StorableProblem | undefined {
  const seen = new Set<object>();
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: current, path } = item;
    if (typeof current === 'string') {
      const rule = stringProblem(current);
      if (rule !== undefined) return { path, rule };
      continue;
    }
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (!isWalked(current)) continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], path: `${path}[${i}]` });
      continue;
    }
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const rule = stringProblem(key);
      if (rule !== undefined) return { path: keyPath(path, key), rule: `key ${rule}` };
      stack.push({ value: (current as Record<string, unknown>)[key], path: keyPath(path, key) });
    }
  }
  return undefined;
}
