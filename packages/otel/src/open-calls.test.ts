import type { Span } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { OpenCalls } from './open-calls.ts';

/** A span that counts its ends. */
function span(): Span & { ends: number } {
  const made = { ends: 0, end: () => made.ends++ };
  return made as unknown as Span & { ends: number };
}

describe('OpenCalls', () => {
  it('tells two sessions apart when they use the same call id', () => {
    const calls = new OpenCalls(8);
    const a = span();
    const b = span();
    calls.add('s1', 'call_1', a, true);
    calls.add('s2', 'call_1', b, true);
    expect(calls.size).toBe(2);
    expect(calls.get('s1', 'call_1')?.span).toBe(a);
    expect(calls.take('s2', 'call_1')?.span).toBe(b);
    expect(calls.get('s2', 'call_1')).toBeUndefined();
    expect(calls.size).toBe(1);
    expect(a.ends + b.ends).toBe(0);
  });

  it('ends every other span when one span processor throws while ending one', () => {
    const calls = new OpenCalls(8);
    const failing = span();
    failing.end = () => {
      throw new Error('processor down');
    };
    const others = [span(), span()];
    calls.add('s1', 'c1', failing, true);
    calls.add('s1', 'c2', others[0] as Span, true);
    calls.add('s2', 'c1', others[1] as Span, true);
    expect(() => calls.endAll()).not.toThrow();
    expect(others.map((other) => other.ends)).toEqual([1, 1]);
    expect(calls.size).toBe(0);
  });

  it('ends the older span of a call started again with the same ids, not a host span', () => {
    const calls = new OpenCalls(8);
    const first = span();
    const second = span();
    calls.add('s', 'c', first, true);
    calls.add('s', 'c', second, false);
    expect(first.ends).toBe(1);
    calls.add('s', 'c', span(), true);
    expect(second.ends).toBe(0);
    expect(calls.size).toBe(1);
  });

  it('past the limit, ends and forgets the oldest call of any session', () => {
    const calls = new OpenCalls(3);
    const spans = [span(), span(), span(), span(), span()];
    calls.add('s1', 'a', spans[0] as Span, true);
    calls.add('s2', 'b', spans[1] as Span, true);
    calls.add('s1', 'c', spans[2] as Span, true);
    calls.add('s2', 'd', spans[3] as Span, true);
    expect(spans.map((made) => made.ends)).toEqual([1, 0, 0, 0, 0]);
    expect(calls.get('s1', 'a')).toBeUndefined();
    calls.add('s3', 'e', spans[4] as Span, true);
    expect(spans.map((made) => made.ends)).toEqual([1, 1, 0, 0, 0]);
    expect(calls.size).toBe(3);
  });

  it('ends every owned span and forgets every call at the end', () => {
    const calls = new OpenCalls(8);
    const owned = span();
    const host = span();
    calls.add('s', 'a', owned, true);
    calls.add('s', 'b', host, false);
    calls.endAll();
    expect([owned.ends, host.ends]).toEqual([1, 0]);
    expect(calls.size).toBe(0);
    expect(calls.get('s', 'a')).toBeUndefined();
  });

  it('drops emptied sessions past sixteen, and still finds the calls of the others', () => {
    const calls = new OpenCalls(64);
    for (let i = 0; i < 40; i++) calls.add(`s${i}`, 'c', span(), true);
    for (let i = 0; i < 40; i += 2) calls.take(`s${i}`, 'c');
    expect(calls.size).toBe(20);
    for (let i = 1; i < 40; i += 2) expect(calls.get(`s${i}`, 'c')).toBeDefined();
  });
});
