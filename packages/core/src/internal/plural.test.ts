import { describe, expect, it } from 'vitest';
import { isRecord } from './is-record.ts';
import { plural } from './plural.ts';

describe('plural', () => {
  it('adds an s for every count but one', () => {
    expect([0, 1, 2].map((n) => plural(n, 'step'))).toEqual(['0 steps', '1 step', '2 steps']);
  });
});

describe('isRecord', () => {
  it('accepts plain and null-prototype objects, refuses null, arrays and primitives', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    expect([null, [], 'x', 1, undefined].map(isRecord)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
