import { pointerTokens, resolvePointer } from '../json-pointer.ts';
import { matchesStrictSchema } from '../matches-strict-schema.ts';

type Node = Record<string, unknown>;

// The schema a `$ref` reaches in the root document, else the entry of `defs` it names.
function definitionOf(root: unknown, defs: Node, ref: string): unknown {
  return resolvePointer(root, ref) ?? defs[pointerTokens(ref)?.[1] ?? ''];
}

/** What {@link sampleStrictValue} returns for a schema no value satisfies. */
export const NO_VALUE: unique symbol = Symbol('no value');

/** A seeded generator of numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) | 0;
    return ((state >>> 8) & 0xffff) / 0x10000;
  };
}

// Strings of each strict format that also match the patterns zod emits beside them.
const FORMATTED: Readonly<Record<string, string>> = {
  email: 'ada@example.com',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  'date-time': '2024-01-02T03:04:05Z',
  date: '2024-01-02',
  time: '03:04:05',
  duration: 'P1D',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

/**
 * A value of a strict schema's shape, as a model in strict mode could send it: every property
 * present (`#` is `root`, the schema first given), a random `anyOf` branch, type and enum value, lengths and bounds respected (not
 * `pattern`, except through `format`). Below `depth` 6 it prefers `null` and empty arrays, so
 * recursive schemas end. {@link NO_VALUE} when no value satisfies the schema.
 */
export function sampleStrictValue(
  schema: unknown,
  defs: Node,
  random: () => number,
  depth = 0,
  root: unknown = schema,
): unknown {
  const node = schema as Node;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const ref = node['$ref'];
  if (typeof ref === 'string')
    return sampleStrictValue(
      ref === '#' ? root : definitionOf(root, defs, ref),
      defs,
      random,
      depth + 1,
      root,
    );
  const anyOf = node['anyOf'] as unknown[] | undefined;
  if (anyOf !== undefined) {
    const nullBranch = anyOf.find((branch) => (branch as Node)['type'] === 'null');
    const first = depth > 6 && nullBranch ? nullBranch : pick(anyOf);
    // A branch no value satisfies (an enum none of whose values has the type) is skipped.
    for (const branch of [first, ...anyOf]) {
      const value = sampleStrictValue(branch, defs, random, depth + 1, root);
      if (value !== NO_VALUE) return value;
    }
    return NO_VALUE;
  }
  if (Array.isArray(node['enum'])) {
    // A model answers with a value of both the enum and the type.
    const type = node['type'];
    const typed = node['enum'].filter(
      (value) => type === undefined || matchesStrictSchema({ type }, value, () => undefined),
    );
    return typed.length === 0 ? NO_VALUE : pick(typed);
  }
  if (Object.hasOwn(node, 'const')) {
    const type = node['type'];
    const value = node['const'];
    const typed = type === undefined || matchesStrictSchema({ type }, value, () => undefined);
    return typed ? value : NO_VALUE;
  }
  const types = Array.isArray(node['type']) ? node['type'] : [node['type']];
  const type = depth > 6 && types.includes('null') ? 'null' : pick(types);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return random() < 0.5;
    case 'string': {
      const format = FORMATTED[node['format'] as string];
      if (format !== undefined) return format;
      const min = (node['minLength'] as number | undefined) ?? 0;
      const max = (node['maxLength'] as number | undefined) ?? min + 4;
      return 's'.repeat(min + Math.floor(random() * (max - min + 1)));
    }
    case 'number':
    case 'integer': {
      const min = (node['minimum'] as number | undefined) ?? -3;
      const max = (node['maximum'] as number | undefined) ?? min + 6;
      return Math.max(min, Math.min(max, Math.ceil(min + random() * (max - min))));
    }
    case 'array': {
      const min = (node['minItems'] as number | undefined) ?? 0;
      const max = (node['maxItems'] as number | undefined) ?? min + 2;
      const length = depth > 6 ? min : min + Math.floor(random() * (max - min + 1));
      const items = Array.from({ length }, () =>
        sampleStrictValue(node['items'], defs, random, depth + 1, root),
      );
      if (!items.includes(NO_VALUE)) return items;
      return min === 0 ? [] : NO_VALUE;
    }
    case 'object': {
      const out: Node = {};
      for (const [key, child] of Object.entries(node['properties'] as Node)) {
        const value = sampleStrictValue(child, defs, random, depth + 1, root);
        if (value === NO_VALUE) return NO_VALUE;
        Object.defineProperty(out, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    default:
      throw new Error(`cannot sample ${JSON.stringify(node).slice(0, 200)}`);
  }
}
