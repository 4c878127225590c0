import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

describe('canonicalJson', () => {
  it('sorts keys, drops undefined properties and leaves no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined })).toBe(
      '{"a":[true,null,"x"],"b":1}',
    );
    expect(canonicalJson(Object.assign(Object.create(null), { z: 1 }))).toBe('{"z":1}');
  });

  it('is undefined for what is not JSON data, including cycles, but not for shared values', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = { again: cycle };
    const shared = { x: 1 };
    for (const bad of [cycle, [undefined], Number.NaN, 1n, () => 1, new Date(0), [Symbol()]]) {
      expect(canonicalJson(bad)).toBeUndefined();
    }
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it('walks 200,000 levels of nesting without throwing', () => {
    const text = canonicalJson(nested(200_000));
    expect(text).toBe(`${'{"k":['.repeat(100_000)}1${']}'.repeat(100_000)}`);
  });

  it('gives the text the recursive definition gives', () => {
    // The definition: sorted keys, undefined properties dropped, no whitespace.
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      if (typeof value !== 'object' || value === null) return JSON.stringify(value);
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${reference(record[key])}`).join(',')}}`;
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 300 },
    );
  });
});
