import type { Plan, PlanStep, StepStatus } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { createGoal } from './create-goal.ts';
import { decideGoal } from './decide-goal.ts';
import type { Goal } from './goal-state.ts';
import { observePlan } from './replan-guard.ts';

const NOW = 1_700_000_000_000;

function step(index: number, title: string, status: StepStatus = 'pending'): PlanStep {
  return {
    step_id: `S${String(index + 1).padStart(3, '0')}`,
    title,
    details: null,
    status,
    notes: [],
  };
}

function plan(objective: string, steps: readonly PlanStep[]): Plan {
  const all = steps.length > 0 && steps.every((s) => s.status === 'done');
  return { objective, status: all ? 'completed' : 'active', steps };
}

/** Runs a recorded history of plans, one per turn, through decideGoal until it stops. */
function run(goal: Goal, history: readonly (Plan | undefined)[]) {
  let current = goal;
  let turns = 0;
  for (const [index, seen] of history.entries()) {
    const step = decideGoal(current, { plan: seen, usage: { tokens: 100 }, now: NOW + index + 1 });
    if (!step.ok) throw step.error;
    current = step.value.goal;
    turns++;
    if (step.value.decision.action !== 'continue')
      return { goal: current, turns, decision: step.value.decision };
  }
  return { goal: current, turns, decision: null };
}

describe('the re-plan guard on recorded histories', () => {
  it('stops the Codex case (a new plan every turn, nothing done) as blocked within K turns', () => {
    const goal = createGoal({
      objective: 'Ship the feature',
      budget: { turns: 10_000, costUsd: null },
      now: NOW,
    });
    // Turn after turn the agent sets up a fresh plan: the steps reworded, nothing ever done.
    const history = Array.from({ length: 1_000 }, (_, turn) =>
      plan(`Ship the feature (attempt ${turn})`, [
        step(0, `Investigate the code, pass ${turn}`),
        step(1, `Write the plan for pass ${turn}`),
      ]),
    );
    const result = run(goal, history);
    expect(result.decision).toMatchObject({ action: 'ask', status: 'blocked' });
    // The first plan is not churn; then churnTurns (4) re-plans trip the guard.
    expect(result.turns).toBe(5);
    expect(result.goal.status).toBe('blocked');
    expect(result.goal.reason).toMatch(
      /set up, re-planned or rewritten on 4 turns with no step done/,
    );
    expect(result.goal.question).toMatch(/keeps re-planning/);
  });

  it('stops a plan whose same steps are added and removed again', () => {
    const goal = createGoal({ objective: 'Fix the build', guard: { churnTurns: 100 }, now: NOW });
    const a = plan('Fix the build', [step(0, 'Read the logs'), step(1, 'Patch the config')]);
    const b = plan('Fix the build', [step(0, 'Read the logs')]);
    const result = run(goal, [a, b, a, b, a, b, a]);
    expect(result.decision).toMatchObject({ action: 'ask', status: 'blocked' });
    expect(result.goal.reason).toMatch(/2 steps were removed and added again with no step done/);
    expect(result.turns).toBe(5);
  });

  it('runs a long honest plan to its end: 200 steps, one done every 3 turns', () => {
    const goal = createGoal({
      objective: 'Port 200 modules',
      budget: { turns: null, costUsd: null },
      now: NOW,
    });
    const titles = Array.from({ length: 200 }, (_, i) => `Port module ${i + 1}`);
    const history: Plan[] = [];
    for (let done = 0; done <= 200; done++) {
      const steps = titles.map((title, i) => step(i, title, i < done ? 'done' : 'pending'));
      const turns = done === 200 ? 1 : 3;
      for (let t = 0; t < turns; t++) {
        // Between marks the agent edits the plan: a step's title sharpened, now and then.
        const edited =
          t === 1
            ? steps.map((s, i) => (i === done ? { ...s, title: `${s.title} (tests)` } : s))
            : steps;
        history.push(plan('Port 200 modules', edited));
      }
    }
    const result = run(goal, history);
    expect(result.decision).toBeNull();
    expect(result.turns).toBe(history.length);
    expect(result.goal.status).toBe('active');
    expect(result.goal.guard.done).toBe(200);
  });

  it('does not count quiet turns (no plan change, no step done) as churn', () => {
    const goal = createGoal({ objective: 'Refactor', now: NOW });
    const p = plan('Refactor', [step(0, 'Split the module')]);
    const result = run(
      goal,
      Array.from({ length: 50 }, () => p),
    );
    expect(result.decision).toBeNull();
    expect(result.goal.guard.churn).toBe(0);
  });

  it('resets when a step is done, and keeps its state bounded however long the history', () => {
    const goal = createGoal({ objective: 'Refactor', now: NOW });
    let guard = goal.guard;
    for (let turn = 0; turn < 500; turn++) {
      const seen = plan('Refactor', [step(turn, `Step ${turn}`)]);
      guard = observePlan(guard, seen).guard;
    }
    expect(guard.removed.length).toBeLessThanOrEqual(64);
    const done = observePlan(guard, plan('Refactor', [step(0, 'Step 0', 'done')]));
    expect(done.guard.churn).toBe(0);
    expect(done.tripped).toBeNull();
  });
});
