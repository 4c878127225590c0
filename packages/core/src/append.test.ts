import { describe, expect, it } from 'vitest';
import { append } from './append.ts';
import { replaceLatest } from './replace-latest.ts';

const event = <T>(value: T) => ({ dataType: 't', value, sessionId: 's', at: 0 });

describe('append', () => {
  it('adds values and skips one structurally equal to a value already there', () => {
    const slice = [{ a: 1, b: [1, 2] }];
    expect(append(slice, event({ a: 2, b: [1, 2] }))).toEqual([
      { a: 1, b: [1, 2] },
      { a: 2, b: [1, 2] },
    ]);
    expect(append(slice, event({ b: [1, 2], a: 1 }))).toBe(slice);
    expect(append([1, 2], event(2))).toEqual([1, 2]);
    expect(append([{ a: [1] }], event({ a: [1, 2] }))).toHaveLength(2);
    expect(append<object>([{ a: 1 }], event({ a: 1, b: undefined }))).toHaveLength(2);
    expect(append<object>([[1]], event({ 0: 1 }))).toHaveLength(2);
  });
});

describe('replaceLatest', () => {
  it('keeps only the latest value', () => {
    expect(replaceLatest([1, 2, 3], event(4))).toEqual([4]);
    expect(replaceLatest([], event('x'))).toEqual(['x']);
  });
});
