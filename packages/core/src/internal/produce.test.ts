import { describe, expect, it } from 'vitest';
import { deepFreeze } from './produce.ts';

describe('deepFreeze', () => {
  it('freezes 100,000 levels of nesting without overflowing the stack', () => {
    const root: { next: unknown } = { next: null };
    let tail = root;
    for (let i = 0; i < 100_000; i++) {
      const next = { next: null };
      tail.next = i % 2 === 0 ? [next] : next;
      tail = next;
    }
    expect(() => deepFreeze(root)).not.toThrow();
    expect(Object.isFrozen(tail)).toBe(true);
  });

  it('freezes every plain part, arrays and objects alike', () => {
    const value = { a: [{ b: { c: [1, 2] } }], d: 'x' };
    deepFreeze(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(Object.isFrozen(value.a[0]?.b.c)).toBe(true);
  });

  it('trusts an already frozen object: its parts are left as they are', () => {
    const inner = { open: true };
    const shared = Object.freeze({ inner });
    const value = { shared, fresh: { inner } };
    deepFreeze(value);
    expect(Object.isFrozen(value.fresh)).toBe(true);
    expect(Object.isFrozen(inner)).toBe(true);
    const untouched = { open: true };
    deepFreeze({ kept: Object.freeze({ untouched }) });
    expect(Object.isFrozen(untouched)).toBe(false);
  });

  it('leaves typed arrays alone and survives cycles and shared parts', () => {
    const bytes = new Uint8Array([1, 2]);
    const cyclic: Record<string, unknown> = { bytes };
    cyclic['self'] = cyclic;
    cyclic['twice'] = [cyclic, cyclic];
    expect(deepFreeze(cyclic)).toBe(cyclic);
    expect(Object.isFrozen(cyclic['twice'])).toBe(true);
    expect(Object.isFrozen(bytes)).toBe(false);
    expect(deepFreeze(7)).toBe(7);
    expect(deepFreeze(null)).toBe(null);
  });
});
