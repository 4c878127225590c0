import { InProcessEventBus, Session, selectLatest } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { budgetFromJSON } from './budget-from-json.ts';
import { BudgetState } from './budget-state.ts';
import { createBudget } from './create-budget.ts';
import { reserveBudget } from './reserve-budget.ts';
import { setBudgetCaps } from './set-budget-caps.ts';

// A budget as version 1 stored it, before the whole-session caps took the machine caps' names.
const held = reserveBudget(createBudget({ now: 0, caps: { costUsd: 1, tokens: 500 } }), {
  id: 'a',
  usd: 0.1,
  tokens: 10,
  now: 1,
});
if (!held.ok) throw held.error;
const { costUsd, tokens, ...rest } = held.value.caps;
const v1 = {
  ...held.value,
  version: 1,
  caps: { sessionUsd: costUsd, ...rest, sessionTokens: tokens },
};

describe('budget cap names', () => {
  it('names the whole-session caps costUsd and tokens, like the machine caps', () => {
    expect(createBudget({ now: 0 }).caps).toEqual({
      costUsd: 2,
      dayUsd: 5,
      turnSoftUsd: 0.3,
      tokens: null,
      dayTokens: null,
    });
    const over = reserveBudget(createBudget({ now: 0, caps: { costUsd: 0.1 } }), {
      id: 'a',
      usd: 0.2,
      now: 1,
    });
    expect(over.ok ? undefined : over.error).toMatchObject({
      code: 'budget_exceeded',
      cap: 'costUsd',
    });
  });

  it('still takes the deprecated names sessionUsd and sessionTokens as input', () => {
    const budget = createBudget({ now: 0, caps: { sessionUsd: 3, sessionTokens: 40 } });
    expect(budget.caps).toMatchObject({ costUsd: 3, tokens: 40 });
    const raised = setBudgetCaps(budget, { sessionUsd: 4 });
    expect(raised.ok && raised.value.caps.costUsd).toBe(4);
    expect(() => createBudget({ now: 0, caps: { sessionUsd: 3, costUsd: 3 } })).toThrow(
      /options\.caps\.sessionUsd is the old name of costUsd/,
    );
    expect(() => createBudget({ now: 0, caps: { sessionUsd: -1 } })).toThrow(
      /options\.caps\.sessionUsd must be null or a USD amount/,
    );
  });

  it('reads a version-1 budget as version 2, as JSON and in a session slice', () => {
    expect(budgetFromJSON(JSON.stringify(v1))).toEqual({ ok: true, value: held.value });
    expect(budgetFromJSON(v1)).toEqual({ ok: true, value: held.value });
    const session = new Session({ bus: new InProcessEventBus() });
    session.register(BudgetState, (_slice, { value }) => [value]);
    const stored = session.dispatch(BudgetState, v1 as never, { now: 2 });
    expect(stored.ok).toBe(true);
    expect(selectLatest(session, BudgetState)).toEqual(held.value);
  });
});
