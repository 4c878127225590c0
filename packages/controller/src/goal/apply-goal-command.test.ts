import { selectLatest, snapshotFromJSON, snapshotToJSON } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { applyGoalCommand } from './apply-goal-command.ts';
import { createGoal } from './create-goal.ts';
import { decideGoal } from './decide-goal.ts';
import { type Goal, GoalState } from './goal-state.ts';
import { goalSession, NOW, unwrap } from './testing/goal-session.ts';

describe('applyGoalCommand', () => {
  it('pause, resume and clear each work, and the session reads them back from JSON', () => {
    const session = goalSession();
    let goal = createGoal({ objective: 'Ship it', now: NOW });
    unwrap(session.dispatch(GoalState, goal));
    goal = unwrap(
      applyGoalCommand(goal, { type: 'pause', reason: 'Waiting for review', now: NOW + 1 }),
    );
    unwrap(session.dispatch(GoalState, goal));
    expect(selectLatest(session, GoalState)).toMatchObject({
      status: 'paused',
      reason: 'Waiting for review',
    });
    // A paused goal decides nothing.
    const refused = decideGoal(goal, { now: NOW + 10 });
    expect(!refused.ok && refused.error.message).toBe(
      'decideGoal: the goal is paused, not active; resume it first.',
    );
    goal = unwrap(applyGoalCommand(goal, { type: 'resume', now: NOW + 2 }));
    expect(goal).toMatchObject({ status: 'active', reason: null });
    goal = unwrap(applyGoalCommand(goal, { type: 'clear', now: NOW + 3 }));
    unwrap(session.dispatch(GoalState, goal));
    expect(selectLatest(session, GoalState)?.status).toBe('cleared');

    const text = JSON.stringify(snapshotToJSON(session.snapshot()));
    const read = snapshotFromJSON(text, goalSession());
    expect(read.ok && read.value.slices).toEqual(session.snapshot().slices);
  });

  it('refuses a command that does not apply, or bad input, naming the rule', () => {
    const goal = createGoal({ objective: 'Ship it', now: NOW });
    const resume = applyGoalCommand(goal, { type: 'resume', now: NOW });
    expect(!resume.ok && resume.error.message).toBe(
      'applyGoalCommand: only a paused or blocked goal can be resumed; this one is active.',
    );
    const cleared = unwrap(applyGoalCommand(goal, { type: 'clear', now: NOW }));
    const again = applyGoalCommand(cleared, { type: 'clear', now: NOW });
    expect(!again.ok && again.error.code).toBe('goal_inactive');
    const pause = applyGoalCommand(cleared, { type: 'pause', now: NOW });
    expect(!pause.ok && pause.error.message).toBe(
      'applyGoalCommand: only an active goal can be paused; this one is cleared.',
    );
    const bad = applyGoalCommand(goal, { type: 'stop' as never, now: NOW });
    expect(!bad.ok && bad.error.field).toBe('command.type');
    const key = applyGoalCommand(goal, { type: 'resume', now: NOW, reason: 'x' } as never);
    expect(!key.ok && key.error.message).toBe('applyGoalCommand: command.reason is not a key.');
    const early = applyGoalCommand(goal, { type: 'pause', now: NOW - 1 });
    expect(!early.ok && early.error.field).toBe('command.now');
    const reason = applyGoalCommand(goal, { type: 'pause', reason: 'a\u0000b', now: NOW });
    expect(!reason.ok && reason.error.field).toBe('command.reason');
    expect(goal.status).toBe('active');
  });

  it('resuming a blocked goal answers the guard: the machine leaves its wait, the guard starts afresh', () => {
    let goal: Goal = createGoal({ objective: 'Ship it', guard: { churnTurns: 1 }, now: NOW });
    const plans = ['a', 'b'].map((title) => ({
      objective: title,
      status: 'active' as const,
      steps: [{ step_id: 'S001', title, details: null, status: 'pending' as const, notes: [] }],
    }));
    for (const [index, plan] of plans.entries())
      goal = unwrap(decideGoal(goal, { plan, now: NOW + index })).goal;
    expect(goal.status).toBe('blocked');
    const resumed = unwrap(applyGoalCommand(goal, { type: 'resume', now: NOW + 5 }));
    expect(resumed.status).toBe('active');
    expect(resumed.machine.state).toBe('WORKING');
    expect(resumed.guard.churn).toBe(0);
    expect(resumed.question).toBeNull();
    // The same plan again is no churn: the agent goes on.
    expect(unwrap(decideGoal(resumed, { plan: plans[1], now: NOW + 6 })).decision.action).toBe(
      'continue',
    );
  });
});
