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

  it('refuses the version-1 names sessionUsd and sessionTokens as input', () => {
    expect(() => createBudget({ now: 0, caps: { sessionUsd: 3 } as never })).toThrow(
      /options\.caps\.sessionUsd is not a budget cap/,
    );
    expect(() => createBudget({ now: 0, caps: { sessionTokens: 40 } as never })).toThrow(
      /options\.caps\.sessionTokens is not a budget cap/,
    );
    const raised = setBudgetCaps(createBudget({ now: 0 }), { sessionUsd: 4 } as never);
    expect(raised.ok ? undefined : raised.error).toMatchObject({
      code: 'input_invalid',
      field: 'caps.sessionUsd',
    });
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
