import {
  createPlanningTools,
  Session,
  selectLatest,
  snapshotFromJSON,
  snapshotToJSON,
} from '@plankit/core';
import { planningCommandsOf } from '@plankit/core/plan-model';
import { describe, expect, it } from 'vitest';
import { decideGoal } from './decide-goal.ts';
import { ClearGoal, PauseGoal, ResumeGoal, SetGoal } from './goal-commands.ts';
import { GoalState } from './goal-state.ts';
import { goals } from './goals.ts';
import { goalSession, NOW, unwrap } from './testing/goal-session.ts';

describe('the goal commands', () => {
  it('set, pause, resume and clear the goal through the session, which reads them back', () => {
    const session = goalSession();
    unwrap(
      session.dispatch(SetGoal, {
        objective: '  Ship it ',
        criteria: 'The tests pass',
        budget: { tokens: 5_000, costUsd: null },
        guard: { churnTurns: 3 },
      }),
    );
    const set = selectLatest(session, GoalState);
    expect(set).toMatchObject({
      objective: 'Ship it',
      criteria: 'The tests pass',
      status: 'active',
      budget: { tokens: 5_000, costUsd: null, turns: 100, wallTimeMs: null },
      guard: { options: { churnTurns: 3, repeats: 2 } },
      setAt: NOW,
    });
    unwrap(session.dispatch(PauseGoal, { reason: 'Waiting for review' }));
    expect(selectLatest(session, GoalState)).toMatchObject({
      status: 'paused',
      reason: 'Waiting for review',
    });
    unwrap(session.dispatch(ResumeGoal, {}));
    expect(selectLatest(session, GoalState)).toMatchObject({ status: 'active', reason: null });
    unwrap(session.dispatch(PauseGoal, {}));
    expect(selectLatest(session, GoalState)?.reason).toBe('Paused by the host.');
    unwrap(session.dispatch(ClearGoal, {}));
    expect(selectLatest(session, GoalState)?.status).toBe('cleared');
    expect(session.select(GoalState)).toHaveLength(1);

    const text = JSON.stringify(snapshotToJSON(session.snapshot()));
    const read = snapshotFromJSON(text, goalSession());
    expect(read.ok && read.value.slices).toEqual(session.snapshot().slices);
  });

  it('a decision after the commands counts on from the goal they left', () => {
    const session = goalSession();
    unwrap(session.dispatch(SetGoal, { objective: 'Ship it' }));
    const first = unwrap(
      decideGoal(selectLatest(session, GoalState) as never, {
        usage: { tokens: 100 },
        now: NOW + 50,
      }),
    );
    unwrap(session.dispatch(GoalState, first.goal, { now: NOW + 50 }));
    // The session's clock is behind the decision's time: the pause takes the goal's own time.
    unwrap(session.dispatch(PauseGoal, { reason: 'Lunch' }));
    const paused = selectLatest(session, GoalState);
    expect(paused).toMatchObject({ status: 'paused', updatedAt: NOW + 50 });
    expect(paused?.counters).toMatchObject({ turns: 1, tokens: 100 });
    unwrap(session.dispatch(ResumeGoal, {}));
    const next = unwrap(
      decideGoal(selectLatest(session, GoalState) as never, {
        usage: { tokens: 5 },
        now: NOW + 60,
      }),
    );
    expect(next.goal.counters).toMatchObject({ turns: 2, tokens: 105 });
  });

  it('refuses a command that does not apply, or bad values, and changes nothing', () => {
    const session = goalSession();
    const none = session.dispatch(PauseGoal, {});
    expect(!none.ok && none.error.message).toBe(
      'Reducer for plankit.controller.PauseGoal into slice plankit.controller.Goal failed: PauseGoal: no goal is set; dispatch SetGoal first.',
    );
    unwrap(session.dispatch(SetGoal, { objective: 'Ship it' }));
    const before = session.snapshot();
    const resume = session.dispatch(ResumeGoal, {});
    expect(!resume.ok && resume.error.message).toContain(
      'applyGoalCommand: only a paused or blocked goal can be resumed; this one is active.',
    );
    const key = session.dispatch(ResumeGoal, { reason: 'x' } as never);
    expect(!key.ok && key.error.code).toBe('value_invalid');
    const blank = session.dispatch(SetGoal, { objective: '   ' });
    expect(!blank.ok && blank.error.message).toContain(
      'createGoal: options.objective must be 1-2000 characters',
    );
    const cap = session.dispatch(SetGoal, { objective: 'x', budget: { turns: -1 } });
    expect(!cap.ok && cap.error.code).toBe('value_invalid');
    expect(session.snapshot()).toBe(before);
  });

  it('declares its data types to the stores, through registerGoalReducers or the tools', () => {
    const names = [
      'plankit.controller.Goal',
      'plankit.controller.SetGoal',
      'plankit.controller.PauseGoal',
      'plankit.controller.ResumeGoal',
      'plankit.controller.ClearGoal',
    ];
    expect([...planningCommandsOf(goalSession()).keys()]).toEqual(names);
    const session = new Session({ sessionId: 'tools' });
    createPlanningTools(session, { extensions: [goals()] });
    for (const name of names) expect(planningCommandsOf(session).has(name)).toBe(true);
    unwrap(session.dispatch(SetGoal, { objective: 'Ship it' }));
    expect(selectLatest(session, GoalState)?.status).toBe('active');
    expect(goals()).toBe(goals());
  });
});
