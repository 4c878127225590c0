import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { budgetFromJSON } from './budget-from-json.ts';
import { type Budget, createBudget } from './create-budget.ts';
import { reserveBudget } from './reserve-budget.ts';
import { setBudgetCaps } from './set-budget-caps.ts';
import { settleBudget } from './settle-budget.ts';

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function err<T>(result: Result<T, ControllerError>): ControllerError {
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

const NOW = Date.UTC(2025, 0, 10, 12);
const fresh = (caps = {}): Budget => createBudget({ now: NOW, caps });

describe('reserveBudget', () => {
  it('holds the amount until it is settled', () => {
    const held = ok(reserveBudget(fresh(), { id: 'c1', usd: 0.12, tokens: 900, now: NOW + 1 }));
    expect(held.reservations).toEqual([
      { id: 'c1', usd: 0.12, tokens: 900, turn: 'c1', at: NOW + 1 },
    ]);
    expect(held.turn).toEqual({ key: 'c1', spentUsd: 0 });
    expect(held.session.spentUsd).toBe(0);
    expect(held.signals).toEqual([]);
    expect(held.updatedAt).toBe(NOW + 1);
  });

  it('refuses a hold that would cross the session cap, naming it, while earlier holds count', () => {
    const first = ok(reserveBudget(fresh(), { id: 'a', usd: 1.5, turn: 't', now: NOW }));
    const error = err(reserveBudget(first, { id: 'b', usd: 0.500001, turn: 't', now: NOW }));
    expect(error).toMatchObject({ code: 'budget_exceeded', cap: 'costUsd', field: 'input.usd' });
    expect(error.message).toBe(
      'reserveBudget: holding 0.500001 USD would take the session to 2.000001 USD (0 USD spent, 1.5 USD reserved), over its cap of 2 USD.',
    );
    expect(
      ok(reserveBudget(first, { id: 'b', usd: 0.5, turn: 't', now: NOW })).reservations,
    ).toHaveLength(2);
  });

  it('refuses a hold over the day cap, counting what other sessions spent today', () => {
    const budget = createBudget({ now: NOW, spentTodayUsd: 4.5, caps: { costUsd: null } });
    expect(err(reserveBudget(budget, { id: 'a', usd: 0.6, now: NOW }))).toMatchObject({
      cap: 'dayUsd',
    });
    // The next day starts again from zero.
    const tomorrow = NOW + 24 * 3600 * 1000;
    const next = ok(reserveBudget(budget, { id: 'a', usd: 0.6, now: tomorrow }));
    expect(next.day).toEqual({ date: '2025-01-11', spentUsd: 0, spentTokens: 0 });
  });

  it('refuses holds over the token caps', () => {
    const budget = fresh({ tokens: 1000, dayTokens: 1500 });
    expect(err(reserveBudget(budget, { id: 'a', usd: 0, tokens: 1001, now: NOW })).cap).toBe(
      'tokens',
    );
    const seeded = createBudget({ now: NOW, caps: { dayTokens: 1500 }, spentTodayTokens: 1000 });
    expect(err(reserveBudget(seeded, { id: 'a', usd: 0, tokens: 501, now: NOW })).cap).toBe(
      'dayTokens',
    );
  });

  it('signals, once, when a turn crosses the soft ceiling, and starts a new turn on a new key', () => {
    let budget = ok(reserveBudget(fresh(), { id: 'a', usd: 0.2, turn: 'turn-1', now: NOW }));
    budget = ok(reserveBudget(budget, { id: 'b', usd: 0.1, turn: 'turn-1', now: NOW }));
    expect(budget.signals).toEqual([]);
    budget = ok(reserveBudget(budget, { id: 'c', usd: 0.05, turn: 'turn-1', now: NOW }));
    expect(budget.signals).toEqual([
      { type: 'turn_ceiling', turn: 'turn-1', usd: 0.35, ceiling: 0.3 },
    ]);
    budget = ok(reserveBudget(budget, { id: 'd', usd: 0.05, turn: 'turn-1', now: NOW }));
    expect(budget.signals).toEqual([]);
    budget = ok(reserveBudget(budget, { id: 'e', usd: 0.29, turn: 'turn-2', now: NOW }));
    expect(budget.turn).toEqual({ key: 'turn-2', spentUsd: 0 });
    expect(budget.signals).toEqual([]);
  });

  it('refuses duplicate ids and bad input, leaving the budget as it was', () => {
    const budget = ok(reserveBudget(fresh(), { id: 'a', usd: 0.1, now: NOW }));
    const snapshot = JSON.stringify(budget);
    expect(err(reserveBudget(budget, { id: 'a', usd: 0.1, now: NOW })).code).toBe(
      'reservation_duplicate',
    );
    const cases: [unknown, string][] = [
      [null, 'input'],
      [{ id: '', usd: 0.1, now: NOW }, 'input.id'],
      [{ id: 'x'.repeat(129), usd: 0.1, now: NOW }, 'input.id'],
      [{ id: 'b', usd: -0.1, now: NOW }, 'input.usd'],
      [{ id: 'b', usd: Number.NaN, now: NOW }, 'input.usd'],
      [{ id: 'b', usd: Number.POSITIVE_INFINITY, now: NOW }, 'input.usd'],
      [{ id: 'b', usd: '0.1', now: NOW }, 'input.usd'],
      [{ id: 'b', usd: 0.1, tokens: -1, now: NOW }, 'input.tokens'],
      [{ id: 'b', usd: 0.1, turn: 7, now: NOW }, 'input.turn'],
      [{ id: 'b', usd: 0.1, now: NOW - 1 }, 'input.now'],
      [{ id: 'b', usd: 0.1, now: NOW, model: 'x' }, 'input.model'],
    ];
    for (const [input, field] of cases) {
      const error = err(reserveBudget(budget, input as never));
      expect(error).toMatchObject({ code: 'input_invalid', field });
    }
    expect(JSON.stringify(budget)).toBe(snapshot);
  });

  it('checks a budget it did not make, and refuses a tampered one', () => {
    const copy = JSON.parse(JSON.stringify(fresh()));
    expect(ok(reserveBudget(copy, { id: 'a', usd: 0.1, now: NOW })).reservations).toHaveLength(1);
    expect(
      err(
        reserveBudget(
          { ...copy, session: { spentUsd: -5, spentTokens: 0 } },
          { id: 'a', usd: 0.1, now: NOW },
        ),
      ).code,
    ).toBe('snapshot_invalid');
  });
});

describe('settleBudget', () => {
  it('records the actual cost, releases the hold, and counts it in the turn and the day', () => {
    let budget = ok(
      reserveBudget(fresh(), { id: 'a', usd: 0.2, tokens: 1000, turn: 't', now: NOW }),
    );
    budget = ok(settleBudget(budget, { id: 'a', usd: 0.15, tokens: 800, now: NOW + 5 }));
    expect(budget.reservations).toEqual([]);
    expect(budget.session).toEqual({ spentUsd: 0.15, spentTokens: 800 });
    expect(budget.day).toEqual({ date: '2025-01-10', spentUsd: 0.15, spentTokens: 800 });
    expect(budget.turn).toEqual({ key: 't', spentUsd: 0.15 });
    expect(budget.signals).toEqual([]);
  });

  it('records an overrun as spent, with a signal', () => {
    let budget = ok(reserveBudget(fresh(), { id: 'a', usd: 0.1, now: NOW }));
    budget = ok(settleBudget(budget, { id: 'a', usd: 0.4, now: NOW }));
    expect(budget.session.spentUsd).toBe(0.4);
    expect(budget.signals).toEqual([
      { type: 'overrun', id: 'a', reservedUsd: 0.1, usd: 0.4 },
      { type: 'turn_ceiling', turn: 'a', usd: 0.4, ceiling: 0.3 },
    ]);
  });

  it('charges a hold settled after midnight to the new day', () => {
    let budget = ok(reserveBudget(fresh(), { id: 'a', usd: 0.1, now: NOW }));
    budget = ok(settleBudget(budget, { id: 'a', usd: 0.1, now: NOW + 13 * 3600 * 1000 }));
    expect(budget.day).toEqual({ date: '2025-01-11', spentUsd: 0.1, spentTokens: 0 });
  });

  it('keeps a finished turn out of the new turn', () => {
    let budget = ok(reserveBudget(fresh(), { id: 'a', usd: 0.25, turn: 'one', now: NOW }));
    budget = ok(reserveBudget(budget, { id: 'b', usd: 0.05, turn: 'two', now: NOW }));
    budget = ok(settleBudget(budget, { id: 'a', usd: 0.25, now: NOW }));
    expect(budget.turn).toEqual({ key: 'two', spentUsd: 0 });
    expect(budget.session.spentUsd).toBe(0.25);
  });

  it('refuses unknown ids and bad input', () => {
    const budget = ok(reserveBudget(fresh(), { id: 'a', usd: 0.1, now: NOW }));
    expect(err(settleBudget(budget, { id: 'zz', usd: 0, now: NOW })).code).toBe(
      'reservation_unknown',
    );
    expect(err(settleBudget(budget, { id: 'a', usd: -1, now: NOW })).field).toBe('input.usd');
    expect(err(settleBudget(budget, { id: 'a', usd: 0, tokens: 0.5, now: NOW })).field).toBe(
      'input.tokens',
    );
    expect(err(settleBudget(budget, { id: 'a', usd: 0, now: Number.NaN })).field).toBe('input.now');
    expect(err(settleBudget(budget, { id: 'a', usd: 0, now: NOW, turn: 't' } as never)).field).toBe(
      'input.turn',
    );
  });
});

describe('setBudgetCaps', () => {
  it('raises a cap so a refused hold fits, and refuses bad caps', () => {
    const spent = ok(
      settleBudget(ok(reserveBudget(fresh(), { id: 'a', usd: 1.9, now: NOW })), {
        id: 'a',
        usd: 1.9,
        now: NOW,
      }),
    );
    expect(err(reserveBudget(spent, { id: 'b', usd: 0.2, now: NOW })).cap).toBe('costUsd');
    const raised = ok(setBudgetCaps(spent, { costUsd: 3 }));
    expect(raised.caps.costUsd).toBe(3);
    expect(ok(reserveBudget(raised, { id: 'b', usd: 0.2, now: NOW })).reservations).toHaveLength(1);
    expect(err(setBudgetCaps(spent, { costUsd: -3 }))).toMatchObject({
      code: 'input_invalid',
      field: 'caps.costUsd',
    });
    expect(err(setBudgetCaps(spent, { yearUsd: 3 } as never)).field).toBe('caps.yearUsd');
  });
});

describe('budget limits and clocks', () => {
  it('refuses the 10,001st reservation, so every budget it returns reads back', () => {
    const base = fresh({ costUsd: null, dayUsd: null, turnSoftUsd: null });
    const reservations = Array.from({ length: 9_999 }, (_, i) => ({
      id: `c${i}`,
      usd: 0,
      tokens: 0,
      turn: 't',
      at: NOW,
    }));
    const full = ok(budgetFromJSON({ ...base, turn: { key: 't', spentUsd: 0 }, reservations }));
    const last = ok(reserveBudget(full, { id: 'last', usd: 0, turn: 't', now: NOW }));
    expect(last.reservations).toHaveLength(10_000);
    expect(ok(budgetFromJSON(JSON.stringify(last)))).toEqual(last);
    const refused = err(reserveBudget(last, { id: 'one-more', usd: 0, turn: 't', now: NOW }));
    expect(refused).toMatchObject({ code: 'reservation_limit', field: 'input.id' });
    expect(refused.message.length).toBeLessThan(2000);
    // Settling one makes room again.
    const settled = ok(settleBudget(last, { id: 'c0', usd: 0, now: NOW }));
    expect(
      ok(reserveBudget(settled, { id: 'one-more', usd: 0, now: NOW })).reservations,
    ).toHaveLength(10_000);
  });

  it('settles money already spent on a clock that stepped back, at the budget time', () => {
    const held = ok(reserveBudget(fresh(), { id: 'c1', usd: 0.2, now: NOW + 5000 }));
    const settled = ok(settleBudget(held, { id: 'c1', usd: 0.15, now: NOW - 60_000 }));
    expect(settled.updatedAt).toBe(NOW + 5000);
    expect(settled.session.spentUsd).toBe(0.15);
    expect(settled.day.spentUsd).toBe(0.15);
    expect(settled.reservations).toEqual([]);
    expect(ok(budgetFromJSON(JSON.stringify(settled)))).toEqual(settled);
    expect(err(settleBudget(held, { id: 'c1', usd: 0.1, now: Number.NaN })).field).toBe(
      'input.now',
    );
    // A reservation on a stepped-back clock is still refused: nothing was spent yet.
    expect(err(reserveBudget(held, { id: 'c2', usd: 0.1, now: NOW })).field).toBe('input.now');
  });
});

describe('budget times a Date cannot hold', () => {
  it('refuses a now beyond +-8.64e15 ms with input_invalid instead of throwing RangeError', () => {
    const budget = createBudget({ now: NOW });
    expect(err(reserveBudget(budget, { id: 'a', usd: 0.1, now: 1e308 }))).toMatchObject({
      code: 'input_invalid',
      field: 'input.now',
    });
    const held = ok(reserveBudget(budget, { id: 'a', usd: 0.1, now: NOW }));
    expect(err(settleBudget(held, { id: 'a', usd: 0.1, now: 1e308 }))).toMatchObject({
      code: 'input_invalid',
      field: 'input.now',
    });
    const stored = { ...JSON.parse(JSON.stringify(held)), updatedAt: 1e300 };
    expect(err(budgetFromJSON(stored))).toMatchObject({ field: 'updatedAt' });
  });
});

describe('settleBudget: totals a budget cannot store', () => {
  it('refuses a settlement that takes spending past what budgetFromJSON reads back, changing nothing', () => {
    const open = { costUsd: null, dayUsd: null, tokens: null, dayTokens: null };
    let budget = createBudget({ now: NOW, caps: open });
    for (let i = 0; i < 9; i++) {
      budget = ok(reserveBudget(budget, { id: `c${i}`, usd: 0, now: NOW }));
      budget = ok(settleBudget(budget, { id: `c${i}`, usd: 1e9, now: NOW }));
    }
    budget = ok(reserveBudget(budget, { id: 'last', usd: 0, now: NOW }));
    expect(err(settleBudget(budget, { id: 'last', usd: 1, now: NOW }))).toMatchObject({
      code: 'input_invalid',
      field: 'input.usd',
    });
    const tokens = ok(
      settleBudget(budget, { id: 'last', usd: 0, tokens: Number.MAX_SAFE_INTEGER, now: NOW }),
    );
    const more = ok(reserveBudget(tokens, { id: 'more', usd: 0, now: NOW }));
    expect(err(settleBudget(more, { id: 'more', usd: 0, tokens: 1, now: NOW }))).toMatchObject({
      code: 'input_invalid',
      field: 'input.tokens',
    });
    expect(budget.reservations.map((held) => held.id)).toEqual(['last']);
    expect(budgetFromJSON(JSON.stringify(tokens)).ok).toBe(true);
  });

  it('still releases a reservation with usd 0 on a stored budget already past that line', () => {
    const held = ok(
      reserveBudget(createBudget({ now: NOW, caps: { costUsd: null, dayUsd: null } }), {
        id: 'a',
        usd: 0,
        now: NOW,
      }),
    );
    const stored = JSON.parse(JSON.stringify(held));
    stored.session.spentUsd = 9_005_000_000;
    const read = ok(budgetFromJSON(stored));
    expect(ok(settleBudget(read, { id: 'a', usd: 0, now: NOW })).reservations).toEqual([]);
  });
});
