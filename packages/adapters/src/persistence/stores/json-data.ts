import {
  type StorableKind,
  type StorableRules,
  storableProblem,
} from '@plankit/core/internal-unstable';

/** Why a value is not JSON data: where, and the rule it breaks. */
export interface JsonProblem {
  /** A path from the argument, such as `events[0].data.items[2]`. */
  readonly path: string;
  /** The rule broken, as the end of a sentence: `is NaN; JSON has only finite numbers`. */
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

// In /u mode a well-formed surrogate pair is one astral code point, so only lone halves match.
const NOT_JSONB_TEXT = /[\0\p{Cs}]/u;

function describe(value: object): string {
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a prototype';
}

/** The stores' wording of what JSON cannot carry. */
function storeRule(kind: StorableKind, value: unknown): string {
  switch (kind) {
    case 'number':
      return `is ${value}; JSON has only finite numbers`;
    case 'type':
    case 'item_undefined':
      return value === undefined
        ? 'is undefined; JSON has no such value'
        : `is a ${typeof value}; JSON has no such value`;
    case 'hole':
      return 'is a hole in a sparse array';
    case 'not_plain_object':
      return `is ${describe(value as object)}, not a plain object`;
    case 'not_plain_array':
      return `is ${describe(value as object)}, not a plain array`;
    case 'symbol_keys':
      return 'has symbol keys, which JSON drops';
    case 'cycle':
      return 'refers back to itself (a cycle)';
    case 'too_deep':
      return 'is nested too deeply';
    default: {
      const unknown: never = kind;
      return unknown;
    }
  }
}

// No depth of their own: a value nested past what the stack holds is refused as too deep.
const JSON_RULES: StorableRules = {
  depth: Number.POSITIVE_INFINITY,
  exact: true,
  text: () => undefined,
  rule: storeRule,
};

const JSONB_RULES: StorableRules = {
  ...JSON_RULES,
  text: (text, key) =>
    NOT_JSONB_TEXT.test(text)
      ? key
        ? 'is a key holding U+0000 or a lone surrogate'
        : 'holds U+0000 or a lone surrogate, which jsonb cannot store'
      : undefined,
};

/** `root` followed by a path from it, as core's walk writes one (`a.b`, `[0]`, `["a b"]`). */
function joinPath(root: string, inner: string): string {
  if (inner === '') return root;
  return inner.startsWith('[') ? `${root}${inner}` : `${root}.${inner}`;
}

/**
 * Serializes `value` when it is JSON data that reads back deep-equal (except properties
 * holding `undefined`, which JSON drops), or says where it is not. The walk is core's
 * `storableProblem`, with the stores' wording and rules: no depth limit but the stack's,
 * cycles, symbol keys and arrays with another prototype refused, and strings checked only
 * under `jsonb`.
 */
export function toJsonText(
  value: unknown,
  path: string,
  options: JsonTextOptions = {},
): { readonly text: string } | { readonly problem: JsonProblem } {
  try {
    const problem = storableProblem(value, options.jsonb === true ? JSONB_RULES : JSON_RULES);
    if (problem !== undefined) {
      return { problem: { path: joinPath(path, problem.path), rule: problem.rule } };
    }
    return { text: JSON.stringify(value) };
  } catch (cause) {
    if (cause instanceof RangeError) return { problem: { path, rule: 'is nested too deeply' } };
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { problem: { path, rule: `cannot be read: ${reason}` } };
  }
}
