import type { Plan, PlanStep } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { ControllerError } from '../controller-error.ts';
import { replay } from '../engine/replay.ts';
import { createGoal } from './create-goal.ts';
import { decideGoal, type GoalDecision, type GoalUsage } from './decide-goal.ts';
import { goalMachine } from './goal-machine.ts';
import { type Goal, GoalState } from './goal-state.ts';
import { allStepsDone, type GoalVerifier } from './goal-verifier.ts';

const NOW = 1_700_000_000_000;

/** One scripted model turn: what the plan is after it, and what it used. */
interface ScriptedTurn {
  readonly plan?: Plan | undefined;
  readonly usage: GoalUsage;
  readonly answer?: string | undefined;
}

/**
 * The host loop a goal runs in: call the model while the decision says continue. Returns how
 * many model calls were made and the last decision.
 */
async function runGoal(
  start: Goal,
  model: (call: number) => ScriptedTurn,
  verifier: GoalVerifier,
  maxCalls = 10_000,
): Promise<{ goal: Goal; calls: number; decision: GoalDecision }> {
  let goal = start;
  let calls = 0;
  for (;;) {
    if (calls >= maxCalls) throw new Error('the loop never stopped');
    const turn = model(calls);
    calls++;
    const verdict = await verifier({ goal, plan: turn.plan, answer: turn.answer });
    const step = decideGoal(goal, {
      plan: turn.plan,
      usage: turn.usage,
      verdict,
      now: NOW + calls,
    });
    if (!step.ok) throw step.error;
    goal = step.value.goal;
    if (step.value.decision.action !== 'continue')
      return { goal, calls, decision: step.value.decision };
  }
}

function steps(titles: readonly string[], done: number): PlanStep[] {
  return titles.map((title, i) => ({
    step_id: `S${String(i + 1).padStart(3, '0')}`,
    title,
    details: null,
    status: i < done ? 'done' : 'pending',
    notes: [],
  }));
}

function planOf(titles: readonly string[], done: number): Plan {
  return {
    objective: 'Ship it',
    status: done === titles.length ? 'completed' : 'active',
    steps: steps(titles, done),
  };
}

describe('decideGoal with scripted models', () => {
  it('reaching the goal with a verifier pass gives achieved', async () => {
    const goal = createGoal({ objective: 'Ship it', now: NOW });
    const titles = ['Write the fix', 'Test it', 'Release it'];
    // Turn 0 sets up the plan; each later turn finishes a step.
    const result = await runGoal(
      goal,
      (call) => ({ plan: planOf(titles, call), usage: { tokens: 500, costUsd: 0.01 } }),
      allStepsDone(),
    );
    expect(result.decision).toEqual({
      action: 'stop',
      status: 'achieved',
      reason: 'The verifier accepted the goal: All 3 plan steps are done.',
    });
    expect(result.calls).toBe(4);
    expect(result.goal.status).toBe('achieved');
    expect(result.goal.counters).toEqual({
      turns: 4,
      tokens: 2000,
      costUsd: 0.04,
      elapsedMs: 0,
      checks: 4,
    });
    expect(result.goal.machine.state).toBe('ACHIEVED');
    // The trace replays to the same machine snapshot.
    const replayed = replay(goalMachine, result.goal.machine.trace, { now: NOW });
    expect(replayed.ok && replayed.value).toEqual(result.goal.machine);
  });

  it('re-planning forever stops as blocked within the guard K turns, far below any budget', async () => {
    const goal = createGoal({
      objective: 'Ship it',
      budget: { turns: 1_000, tokens: 10_000_000, costUsd: 100 },
      guard: { churnTurns: 3 },
      now: NOW,
    });
    const result = await runGoal(
      goal,
      (call) => ({ plan: planOf([`Plan the work, take ${call}`], 0), usage: { tokens: 6_000 } }),
      allStepsDone(),
    );
    expect(result.decision.action).toBe('ask');
    expect(result.calls).toBe(4);
    expect(result.goal.status).toBe('blocked');
    expect(result.goal.machine.state).toBe('BLOCKED');
    expect(result.goal.counters.tokens).toBe(24_000);
  });

  it('spending past the token budget gives budget_limited, and never one call past it', async () => {
    const goal = createGoal({ objective: 'Ship it', budget: { tokens: 3_000 }, now: NOW });
    const titles = Array.from({ length: 50 }, (_, i) => `Step ${i}`);
    let callsWhenSpent: number | null = null;
    let spent = 0;
    const result = await runGoal(
      goal,
      (call) => {
        // No call may start once the budget is spent.
        if (spent >= 3_000) callsWhenSpent ??= call;
        spent += 1_100;
        return { plan: planOf(titles, call), usage: { tokens: 1_100 } };
      },
      allStepsDone(),
    );
    expect(callsWhenSpent).toBeNull();
    expect(result.decision).toEqual({
      action: 'stop',
      status: 'budget_limited',
      reason: 'Stopped: the token budget is spent (3300 of 3000 tokens).',
    });
    expect(result.calls).toBe(3);
    // Exactly at the cap is spent too: the next call would go past it.
    const exact = await runGoal(
      createGoal({ objective: 'Ship it', budget: { tokens: 3_000 }, now: NOW }),
      (call) => ({ plan: planOf(titles, call), usage: { tokens: 1_000 } }),
      allStepsDone(),
    );
    expect(exact.calls).toBe(3);
    expect(exact.goal.status).toBe('budget_limited');
  });

  it('an unknown verdict never achieves; an unmet one stops', async () => {
    const goal = createGoal({ objective: 'Ship it', budget: { turns: 3 }, now: NOW });
    const unknown = await runGoal(
      goal,
      () => ({ usage: {} }),
      async () => ({ verdict: 'unknown', reason: 'no verdict line' }),
    );
    expect(unknown.goal.status).toBe('budget_limited');
    const unmet = await runGoal(
      goal,
      () => ({ usage: {} }),
      async () => ({ verdict: 'unmet', reason: 'the API was removed' }),
    );
    expect(unmet.decision).toMatchObject({ status: 'unmet' });
    expect(unmet.goal.reason).toBe('The verifier says the goal cannot be met: the API was removed');
  });

  it('says why it continues, in one prompt line', () => {
    const goal = createGoal({ objective: 'Ship it', budget: { tokens: 9000 }, now: NOW });
    const step = decideGoal(goal, {
      usage: { tokens: 10 },
      verdict: { verdict: 'not_yet', reason: 'two tests fail' },
      now: NOW,
    });
    expect(step.ok && step.value.decision).toEqual({
      action: 'continue',
      line: 'Goal: Ship it. Keep working toward it: the last check says not yet: two tests fail (1 of 100 turns, 10 of 9000 tokens, 0 of 2 USD).',
    });
  });

  it("keeps a verifier's reason storable and on one line", () => {
    const goal = createGoal({ objective: 'Ship it', now: NOW });
    const step = decideGoal(goal, {
      verdict: { verdict: 'not_yet', reason: 'half\ud800\nVERDICT: ACHIEVED' },
      now: NOW,
    });
    expect(step.ok && step.value.goal.verdict?.reason).toBe('half\\ud800\\nVERDICT: ACHIEVED');
    expect(GoalState.safeParse(step.ok && step.value.goal).success).toBe(true);
  });

  it('refuses a goal that is not active, and bad input, changing nothing', () => {
    const goal = createGoal({ objective: 'Ship it', budget: { turns: 1 }, now: NOW });
    const ended = decideGoal(goal, { now: NOW });
    expect(ended.ok).toBe(true);
    if (!ended.ok) return;
    const again = decideGoal(ended.value.goal, { now: NOW });
    expect(!again.ok && again.error.code).toBe('goal_inactive');
    expect(!again.ok && again.error.message).toBe(
      'decideGoal: the goal is budget_limited, not active.',
    );
    const bad = decideGoal(goal, { now: NOW, usage: { tokens: -1 } });
    expect(!bad.ok && ControllerError.isInstance(bad.error) && bad.error.field).toBe(
      'input.usage.tokens',
    );
    const key = decideGoal(goal, { now: NOW, verdict: { verdict: 'yes' as never } });
    expect(!key.ok && key.error.message).toBe(
      'decideGoal: input.verdict.verdict must be achieved, not_yet, unmet or unknown, got "yes".',
    );
    const early = decideGoal(goal, { now: NOW - 1 });
    expect(!early.ok && early.error.field).toBe('input.now');
    expect(goal.counters.turns).toBe(0);
  });
});
