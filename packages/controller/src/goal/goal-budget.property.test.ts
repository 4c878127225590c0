import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBudget } from '../budget/create-budget.ts';
import { reserveBudget } from '../budget/reserve-budget.ts';
import { settleBudget } from '../budget/settle-budget.ts';
import { createGoal } from './create-goal.ts';
import { decideGoal } from './decide-goal.ts';

const NOW = 1_700_000_000_000;

describe('a goal and the budget manager, as a property', () => {
  it('the goal stops on its budget exactly when the budget manager would refuse the next call', () => {
    fc.assert(
      fc.property(
        fc.option(fc.nat(5_000)),
        fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
        fc.array(
          fc.record({
            tokens: fc.nat(2_000),
            costUsd: fc.double({ min: 0, max: 0.4, noNaN: true }),
          }),
          { maxLength: 20 },
        ),
        (tokens, costUsd, turns) => {
          let goal = createGoal({
            objective: 'Ship it',
            budget: { tokens, costUsd, turns: null },
            now: NOW,
          });
          let budget = createBudget({
            now: NOW,
            caps: { tokens, costUsd, dayUsd: null, dayTokens: null, turnSoftUsd: null },
          });
          for (const [index, turn] of turns.entries()) {
            const now = NOW + index;
            const step = decideGoal(goal, { usage: turn, now });
            if (!step.ok) return;
            goal = step.value.goal;
            // The same turn through the budget manager: held at nothing, settled at its cost.
            const held = reserveBudget(budget, { id: `call-${index}`, usd: 0, now });
            if (!held.ok) throw held.error;
            const settled = settleBudget(held.value, {
              id: `call-${index}`,
              usd: turn.costUsd,
              tokens: turn.tokens,
              now,
            });
            if (!settled.ok) throw settled.error;
            budget = settled.value;
            // The smallest next call: one micro-dollar, one token.
            const next = reserveBudget(budget, { id: 'next', usd: 0.000001, tokens: 1, now });
            const stopped = step.value.decision.action === 'stop';
            expect(stopped).toBe(!next.ok);
            if (!next.ok) expect(next.error.code).toBe('budget_exceeded');
            if (stopped) return;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
