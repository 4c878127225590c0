import { describe, expect, it } from 'vitest';
import type { Caps, SoftLimits } from '../default-caps.ts';
import {
  retryCapReached,
  retryCount,
  retryLimit,
  softCostCrossed,
  softTurnsCrossed,
  stallReached,
  unstorableTotal,
  usageCapReached,
} from './cap-rules.ts';
import type { CompiledState } from './compiled-machine.ts';

const OPEN: Caps = {
  turns: null,
  retries: null,
  wallTimeMs: null,
  costUsd: null,
  tokens: null,
  stall: null,
};

describe('cap rules', () => {
  it('finds the first usage cap broken, in the order a step checks them', () => {
    const caps: Caps = { ...OPEN, wallTimeMs: 100, costUsd: 1, tokens: 50, turns: 3 };
    expect(usageCapReached(caps, 100, 1_000_000, 50, 2)).toBeNull();
    expect(usageCapReached(caps, 101, 2_000_000, 51, 3)).toBe('wallTimeMs');
    expect(usageCapReached(caps, 100, 1_000_001, 51, 3)).toBe('costUsd');
    expect(usageCapReached(caps, 100, 1_000_000, 51, 3)).toBe('tokens');
    // Turns count the step being taken: 3 turns done, the next is the 4th.
    expect(usageCapReached(caps, 100, 1_000_000, 50, 3)).toBe('turns');
    expect(usageCapReached(OPEN, 1e12, 1e15, 1e15, 1e9)).toBeNull();
  });

  it('reaches the stall cap at that many identical calls in a row', () => {
    expect(stallReached({ ...OPEN, stall: 3 }, 2)).toBe(false);
    expect(stallReached({ ...OPEN, stall: 3 }, 3)).toBe(true);
    expect(stallReached(OPEN, 1000)).toBe(false);
  });

  it('counts retries per state: 0 on a first entry, and only past the limit breaks it', () => {
    expect(retryCount({}, 'a')).toBe(0);
    expect(retryCount({ a: 0 }, 'a')).toBe(1);
    expect(retryCount({ a: 2 }, 'a')).toBe(3);
    const own = { retries: 1 } as CompiledState;
    const inherit = { retries: undefined } as CompiledState;
    expect(retryLimit(own, { ...OPEN, retries: 5 })).toBe(1);
    expect(retryLimit(inherit, { ...OPEN, retries: 5 })).toBe(5);
    expect(retryCapReached(0, 0)).toBe(false);
    expect(retryCapReached(1, 1)).toBe(false);
    expect(retryCapReached(2, 1)).toBe(true);
    expect(retryCapReached(1000, null)).toBe(false);
  });

  it('crosses a soft limit once, on the step that reaches it', () => {
    const soft: SoftLimits = { turns: 4, costUsd: 0.5 };
    expect(softTurnsCrossed(soft, 3, 4)).toBe(true);
    expect(softTurnsCrossed(soft, 4, 5)).toBe(false);
    expect(softTurnsCrossed(soft, 2, 3)).toBe(false);
    expect(softCostCrossed(soft, 400_000, 500_000)).toBe(true);
    expect(softCostCrossed(soft, 500_000, 600_000)).toBe(false);
    expect(softTurnsCrossed({ turns: null, costUsd: null }, 0, 100)).toBe(false);
    expect(softCostCrossed({ turns: null, costUsd: null }, 0, 1e12)).toBe(false);
  });

  it('names the total a snapshot could not store, cost only when the step adds cost', () => {
    const past = 9_000_000_000_000_001;
    expect(unstorableTotal(1, past, 0)).toBe('costUsd');
    expect(unstorableTotal(0, past, 0)).toBeNull();
    expect(unstorableTotal(0, 0, Number.MAX_SAFE_INTEGER + 1)).toBe('tokens');
    expect(unstorableTotal(1, 10, 10)).toBeNull();
  });
});
