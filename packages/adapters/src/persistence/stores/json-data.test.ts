import { describe, expect, it } from 'vitest';
import { toJsonText } from './json-data.ts';

class Point {
  x = 1;
}

describe('toJsonText', () => {
  it('serializes JSON data, dropping properties that hold undefined', () => {
    expect(toJsonText({ a: [1, 'x\u0000', null], b: undefined }, 'data')).toEqual({
      text: '{"a":[1,"x\\u0000",null]}',
    });
  });

  it('names the path from the root and the rule, in the stores words', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    const cases: [unknown, string, string][] = [
      [Number.NaN, 'data', 'is NaN; JSON has only finite numbers'],
      [{ a: [1, 10n] }, 'data.a[1]', 'is a bigint; JSON has no such value'],
      [{ f: () => 1 }, 'data.f', 'is a function; JSON has no such value'],
      [undefined, 'data', 'is undefined; JSON has no such value'],
      [[1, undefined], 'data[1]', 'is undefined; JSON has no such value'],
      // biome-ignore lint/suspicious/noSparseArray: the hole is the point
      [[1, , 3], 'data[1]', 'is a hole in a sparse array'],
      [{ when: new Date(0) }, 'data.when', 'is a Date, not a plain object'],
      [{ point: new Point() }, 'data.point', 'is a Point, not a plain object'],
      [{ list: new (class List extends Array {})() }, 'data.list', 'is a List, not a plain array'],
      [{ [Symbol('k')]: 1 }, 'data', 'has symbol keys, which JSON drops'],
      [{ deep: { cycle } }, 'data.deep.cycle.self', 'refers back to itself (a cycle)'],
      [
        { 'odd key': { x: Number.NaN } },
        'data["odd key"].x',
        'is NaN; JSON has only finite numbers',
      ],
    ];
    for (const [value, path, rule] of cases) {
      expect(toJsonText(value, 'data')).toEqual({ problem: { path, rule } });
    }
  });

  it('refuses U+0000 and lone surrogates in strings and keys under the jsonb rule only', () => {
    expect(toJsonText({ t: '\ud800' }, 'snapshot.data', { jsonb: true })).toEqual({
      problem: {
        path: 'snapshot.data.t',
        rule: 'holds U+0000 or a lone surrogate, which jsonb cannot store',
      },
    });
    expect(toJsonText({ 'k\u0000': 1 }, 'snapshot.data', { jsonb: true })).toEqual({
      problem: {
        path: 'snapshot.data["k\\u0000"]',
        rule: 'is a key holding U+0000 or a lone surrogate',
      },
    });
    expect(toJsonText({ t: '\ud800' }, 'data')).toEqual({ text: '{"t":"\\ud800"}' });
  });

  it('refuses a value nested past what the stack holds, without a limit of its own', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_000; i++) deep = [deep];
    expect('text' in toJsonText(deep, 'data')).toBe(true);
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(toJsonText(deep, 'data')).toEqual({
      problem: { path: 'data', rule: 'is nested too deeply' },
    });
  });

  it('quotes a long key briefly, never splitting a surrogate pair', () => {
    const key = `${'k'.repeat(76)}\u{1F600}${'k'.repeat(100)}`;
    const result = toJsonText({ [key]: Number.NaN }, 'data');
    expect('problem' in result && result.problem.path).toBe(
      `data[${JSON.stringify(`${'k'.repeat(76)}...`)}]`,
    );
  });
});
