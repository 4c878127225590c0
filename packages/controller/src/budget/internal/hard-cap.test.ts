import { describe, expect, it } from 'vitest';
import { capSpent, capSpentText, firstSpentCap, microCap, passesCap } from './hard-cap.ts';

describe('the hard-cap rule', () => {
  it('lets a spend reach a cap exactly, and refuses one past it', () => {
    expect(passesCap(10, 4, 6)).toBe(false);
    expect(passesCap(10, 4, 7)).toBe(true);
    expect(passesCap(null, Number.MAX_SAFE_INTEGER, 1)).toBe(false);
    expect(passesCap(0, 0, 0)).toBe(false);
    expect(passesCap(0, 0, 1)).toBe(true);
    expect(microCap(0.3)).toBe(300_000);
    expect(microCap(null)).toBeNull();
  });

  it('calls a cap spent when any spend would pass it, USD in whole micro-dollars', () => {
    expect(capSpent({ cap: 'tokens', limit: 100, used: 99 })).toBe(false);
    expect(capSpent({ cap: 'tokens', limit: 100, used: 100 })).toBe(true);
    expect(capSpent({ cap: 'turns', limit: null, used: 1e9 })).toBe(false);
    // 0.1 + 0.2 is 0.30000000000000004 in floating point, exactly 0.3 in micro-dollars.
    expect(capSpent({ cap: 'costUsd', limit: 0.3, used: 0.1 + 0.2 })).toBe(true);
    expect(capSpent({ cap: 'costUsd', limit: 0.3, used: 0.2999994 })).toBe(false);
    expect(capSpent({ cap: 'wallTimeMs', limit: 5, used: 4.5 })).toBe(false);
  });

  it('words a spent cap the same for every cap, and finds the first in the order given', () => {
    expect(capSpentText({ cap: 'tokens', limit: 3000, used: 3300 })).toBe(
      'the token budget is spent (3300 of 3000 tokens)',
    );
    expect(capSpentText({ cap: 'costUsd', limit: 2, used: 2.5 })).toBe(
      'the USD budget is spent (2.5 of 2 USD)',
    );
    expect(capSpentText({ cap: 'dayTokens', limit: 10, used: 10 })).toBe(
      "the day's token budget is spent (10 of 10 tokens)",
    );
    expect(
      firstSpentCap([
        { cap: 'tokens', limit: 10, used: 1 },
        { cap: 'turns', limit: 3, used: 3 },
        { cap: 'wallTimeMs', limit: 1, used: 9 },
      ]),
    ).toEqual({ cap: 'turns', text: 'the turn budget is spent (3 of 3 turns)' });
    expect(firstSpentCap([{ cap: 'tokens', limit: null, used: 1 }])).toBeNull();
  });
});
