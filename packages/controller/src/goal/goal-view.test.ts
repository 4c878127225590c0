import {
  createPlanningTools,
  dataTypeName,
  invokeTool,
  Session,
  selectLatest,
} from '@plankit/core';
import { parsePlanView, planView } from '@plankit/core/plan-view';
import { describe, expect, it } from 'vitest';
import { decideGoal } from './decide-goal.ts';
import { ClearGoal, PauseGoal, SetGoal } from './goal-commands.ts';
import { type Goal, GoalState } from './goal-state.ts';
import { GOAL_VIEW_FIELD, goalView } from './goal-view.ts';
import { goals } from './goals.ts';
import { NOW, unwrap } from './testing/goal-session.ts';

async function planned(): Promise<Session> {
  let tick = NOW;
  const session = new Session({ sessionId: 'goal-view', clock: () => tick++ });
  const tools = createPlanningTools(session, { extensions: [goals()] });
  await invokeTool(
    tools.planning_setup_plan,
    { objective: 'Ship', initial_steps: [{ title: 'Build' }] },
    { session },
  );
  return session;
}

describe('the goal in the plan view', () => {
  it('shows the objective, status, budget used and limits, and the last verdict reason', async () => {
    const session = await planned();
    expect(planView(session)?.fields).toBeUndefined();
    unwrap(session.dispatch(SetGoal, { objective: 'Ship it', budget: { tokens: 1_000 } }));
    const goal = selectLatest(session, GoalState) as Goal;
    const step = unwrap(
      decideGoal(goal, {
        usage: { tokens: 400, costUsd: 0.02 },
        verdict: { verdict: 'not_yet', reason: 'Build is not done' },
        now: NOW + 100,
      }),
    );
    unwrap(session.dispatch(GoalState, step.goal, { now: NOW + 100 }));
    const view = planView(session);
    expect(view?.fields?.['goal']).toEqual({
      objective: 'Ship it',
      status: 'active',
      used: '1 of 100 turns, 400 of 1000 tokens, 0.02 of 2 USD',
      budget: { tokens: 1_000, costUsd: 2, turns: 100, wallTimeMs: null },
      counters: { turns: 1, tokens: 400, costUsd: 0.02, elapsedMs: 0, checks: 1 },
      reason: null,
      question: null,
      verdict: { verdict: 'not_yet', reason: 'Build is not done' },
    });
    // The same frozen view while the goal is unchanged; through JSON and parsePlanView intact.
    expect(planView(session)?.fields?.['goal']).toBe(view?.fields?.['goal']);
    const read = parsePlanView(JSON.parse(JSON.stringify(view)));
    expect(read.ok && read.value).toEqual(view);

    unwrap(session.dispatch(PauseGoal, { reason: 'Review' }));
    expect(planView(session)?.fields?.['goal']).toMatchObject({
      status: 'paused',
      reason: 'Review',
    });
    // A cleared goal is no goal: the field is left out.
    unwrap(session.dispatch(ClearGoal, {}));
    expect(planView(session)?.fields).toBeUndefined();
  });

  it('reads the goal slice by its data type name, newest value only', () => {
    expect(GOAL_VIEW_FIELD.name).toBe('goal');
    expect(GOAL_VIEW_FIELD.read({})).toBeNull();
    expect(GOAL_VIEW_FIELD.read({ [dataTypeName(GoalState)]: [] })).toBeNull();
    const goal = createdGoal();
    expect(Object.isFrozen(goalView(goal).budget)).toBe(true);
    expect(goalView(goal)).toBe(goalView(goal));
  });
});

function createdGoal(): Goal {
  const session = new Session({ clock: () => NOW });
  createPlanningTools(session, { extensions: [goals()] });
  unwrap(session.dispatch(SetGoal, { objective: 'x' }));
  return selectLatest(session, GoalState) as Goal;
}
