import { Session, selectLatest } from '@plankit/core';
import type { PlanView, PlanViewFieldValue } from '@plankit/core/plan-view';
import { describe, expectTypeOf, it } from 'vitest';
import { ClearGoal, PauseGoal, ResumeGoal, SetGoal } from './goal-commands.ts';
import { type Goal, GoalState } from './goal-state.ts';
import { type GoalView, goalView } from './goal-view.ts';
import { goals } from './goals.ts';

describe('goal command types', () => {
  it('types each command value, and the goal slice', () => {
    const session = new Session();
    session.dispatch(SetGoal, { objective: 'Ship', budget: { tokens: null, turns: 10 } });
    session.dispatch(SetGoal, { objective: 'Ship', guard: { churnTurns: 3 } });
    // @ts-expect-error the objective is required
    session.dispatch(SetGoal, { criteria: 'Done' });
    // @ts-expect-error a cap is a number or null
    session.dispatch(SetGoal, { objective: 'Ship', budget: { tokens: '5' } });
    session.dispatch(PauseGoal, { reason: 'Review' });
    session.dispatch(PauseGoal, {});
    // @ts-expect-error a reason is text
    session.dispatch(PauseGoal, { reason: 1 });
    session.dispatch(ResumeGoal, {});
    session.dispatch(ClearGoal, {});
    expectTypeOf(selectLatest(session, GoalState)).toEqualTypeOf<Goal | undefined>();
  });

  it('types the goal view and the extension', () => {
    expectTypeOf(goalView).returns.toEqualTypeOf<GoalView>();
    expectTypeOf(goals().name).toEqualTypeOf<'goals'>();
    expectTypeOf<PlanView['fields']>().toEqualTypeOf<
      Readonly<Record<string, PlanViewFieldValue>> | undefined
    >();
  });
});
