import { describe, expect, it } from 'vitest';
import {
  STORABLE_DEPTH,
  type StorableRules,
  storableProblem,
  unstorableText,
} from './storable-problem.ts';

describe('storableProblem', () => {
  it('accepts plain JSON data, and undefined properties JSON drops', () => {
    expect(storableProblem({ a: [1, 'x', null, true, { b: undefined }], 'c d': 'ok' })).toBe(
      undefined,
    );
  });

  it('names the path of the part no store can hold', () => {
    expect(storableProblem({ steps: [{ title: 'a\u0000b' }] })).toEqual({
      path: 'steps[0].title',
      rule: 'must not contain U+0000',
    });
    expect(storableProblem({ 'a b': [1, Number.NaN] })).toEqual({
      path: '["a b"][1]',
      rule: 'must be a finite number',
    });
    expect(storableProblem('\ud800')).toEqual({
      path: '',
      rule: 'must not contain a lone surrogate',
    });
    expect(storableProblem({ f: () => 1 })).toEqual({
      path: 'f',
      rule: 'must be JSON data, not function',
    });
    expect(storableProblem({ d: new Date(0) })).toEqual({
      path: 'd',
      rule: 'must be plain JSON data (an object, array, string, ...)',
    });
  });

  it('checks an array or object itself (holes, keys) before its children', () => {
    expect(storableProblem([Number.NaN, 1, undefined])).toEqual({
      path: '[2]',
      rule: 'must not be undefined',
    });
    expect(storableProblem({ a: Number.NaN, 'k\u0000': 1 })).toEqual({
      path: '["k\\u0000"]',
      rule: 'key must not contain U+0000',
    });
    // Then the children, an object's from its last key, each child's own parts first.
    expect(storableProblem({ a: Number.NaN, b: { c: Number.NaN } })).toEqual({
      path: 'b.c',
      rule: 'must be a finite number',
    });
    expect(storableProblem([[Number.NaN], Number.NaN])).toEqual({
      path: '[0][0]',
      rule: 'must be a finite number',
    });
  });

  it(`stops at ${STORABLE_DEPTH} levels of nesting`, () => {
    let deep: unknown = 1;
    for (let i = 0; i < STORABLE_DEPTH; i++) deep = [deep];
    expect(storableProblem(deep)).toBe(undefined);
    expect(storableProblem([deep])).toEqual({
      path: `${'[0]'.repeat(STORABLE_DEPTH)}`,
      rule: `is nested too deep (more than ${STORABLE_DEPTH} levels)`,
    });
  });

  it('words problems by the rules given, and exact rules refuse what a depth bound cannot tell', () => {
    const rules: StorableRules = {
      depth: 3,
      exact: true,
      text: (text, key) => (text === 'bad' ? (key ? 'bad key' : 'bad text') : undefined),
      rule: (kind) => `broke ${kind}`,
    };
    const cycle: unknown[] = [];
    cycle.push(cycle);
    const cases: [unknown, string, string][] = [
      [Number.NaN, '', 'broke number'],
      [{ a: 'bad' }, 'a', 'bad text'],
      [{ bad: 1 }, 'bad', 'bad key'],
      [[1, undefined], '[1]', 'broke item_undefined'],
      // biome-ignore lint/suspicious/noSparseArray: the hole is the point
      [[1, , 3], '[1]', 'broke hole'],
      [{ d: new Date(0) }, 'd', 'broke not_plain_object'],
      [new (class List extends Array {})(), '', 'broke not_plain_array'],
      [{ [Symbol('k')]: 1 }, '', 'broke symbol_keys'],
      [{ c: cycle }, 'c[0]', 'broke cycle'],
      [[[[[1]]]], '[0][0][0]', 'broke too_deep'],
      [() => 1, '', 'broke type'],
    ];
    for (const [value, path, rule] of cases)
      expect(storableProblem(value, rules)).toEqual({ path, rule });
    // Strings core refuses pass when the rules say so, and a cycle is not refused twice.
    expect(storableProblem({ a: '\u0000', b: [{ c: 1 }, { c: 1 }] }, rules)).toBe(undefined);
  });
});

describe('unstorableText', () => {
  it('judges only text: callbacks, class instances and non-finite numbers pass', () => {
    class Box {
      readonly text = '\u0000';
    }
    const value = { run: () => 1, at: new Date(0), box: new Box(), n: Number.NaN, ok: 'fine' };
    expect(unstorableText(value, 'options')).toBeUndefined();
  });

  it('names the first unstorable string or key by its path under the root', () => {
    expect(
      unstorableText({ entries: [{ content: 'a' }, { content: 'b\u0000' }] }, 'input'),
    ).toEqual({ path: 'input.entries[1].content', rule: 'must not contain U+0000' });
    expect(unstorableText({ 'odd key\ud800': 1 }, 'input')).toEqual({
      path: 'input["odd key\\ud800"]',
      rule: 'key must not contain a lone surrogate',
    });
    expect(unstorableText('\udc00', 'title')).toEqual({
      path: 'title',
      rule: 'must not contain a lone surrogate',
    });
  });

  it('walks cyclic, shared and 100,000-deep input once, without overflowing the stack', () => {
    const cyclic: Record<string, unknown> = { text: 'ok' };
    cyclic['self'] = cyclic;
    expect(unstorableText(cyclic, '')).toBeUndefined();
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableText(deep, 'x')?.rule).toBe('must not contain U+0000');
  });
});
