import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGoal } from './create-goal.ts';
import { decideGoal } from './decide-goal.ts';
import type { Goal } from './goal-state.ts';

const NOW = 1_700_000_000_000;

const turn = fc.record({
  tokens: fc.oneof(fc.nat(5_000), fc.constantFrom(0, 1_000, 2_000_000)),
  costUsd: fc.oneof(fc.double({ min: 0, max: 2, noNaN: true }), fc.constantFrom(0, 0.5)),
  elapsedMs: fc.oneof(fc.nat(120_000), fc.constant(0)),
  verdict: fc.option(
    fc.constantFrom('not_yet', 'unknown', 'achieved', 'unmet') as fc.Arbitrary<
      'not_yet' | 'unknown' | 'achieved' | 'unmet'
    >,
  ),
  titles: fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 4 }),
  done: fc.nat(4),
});

const budget = fc.record({
  tokens: fc.option(fc.nat(20_000)),
  costUsd: fc.option(fc.double({ min: 0, max: 5, noNaN: true })),
  turns: fc.option(fc.nat(30)),
  wallTimeMs: fc.option(fc.nat(600_000)),
});

function within(goal: Goal): boolean {
  const { budget: b, counters: c } = goal;
  return (
    (b.tokens === null || c.tokens < b.tokens) &&
    (b.costUsd === null || c.costUsd < b.costUsd) &&
    (b.turns === null || c.turns < b.turns) &&
    (b.wallTimeMs === null || c.elapsedMs < b.wallTimeMs)
  );
}

describe('decideGoal, as a property', () => {
  it('no sequence of model outputs makes the decision continue past any budget', () => {
    fc.assert(
      fc.property(budget, fc.array(turn, { maxLength: 40 }), (caps, turns) => {
        let goal = createGoal({ objective: 'Ship it', budget: caps, now: NOW });
        for (const [index, t] of turns.entries()) {
          const plan = {
            objective: 'Ship it',
            status: 'active' as const,
            steps: t.titles.map((title, i) => ({
              step_id: `S00${i + 1}`,
              title,
              details: null,
              status: i < t.done ? ('done' as const) : ('pending' as const),
              notes: [],
            })),
          };
          const step = decideGoal(goal, {
            plan,
            usage: { tokens: t.tokens, costUsd: t.costUsd, elapsedMs: t.elapsedMs },
            verdict: t.verdict === null ? null : { verdict: t.verdict },
            now: NOW + index,
          });
          if (!step.ok) {
            // Only a goal that already stopped is refused.
            expect(step.error.code).toBe('goal_inactive');
            expect(goal.status).not.toBe('active');
            return;
          }
          goal = step.value.goal;
          const { decision } = step.value;
          if (decision.action === 'continue') expect(within(goal)).toBe(true);
          else expect(goal.status).toBe(decision.status);
          if (t.verdict !== 'achieved') expect(goal.status).not.toBe('achieved');
        }
      }),
      { numRuns: 200 },
    );
  });
});
