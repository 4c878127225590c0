import type { Plan } from '@plankit/core';
import type { PlanRevision } from '@plankit/core/plan-model';
import { describe, expectTypeOf, it } from 'vitest';
import type { PlanningHistoryStateSchema, PlanningStateSchema } from './planning-middleware.ts';
import { type PlanningHistoryState, type PlanningState, readPlanState } from './read-plan-state.ts';

describe('PlanningState types', () => {
  it('types what readPlanState reads out of the any of getState().values', () => {
    // biome-ignore lint/suspicious/noExplicitAny: LangGraph types StateSnapshot.values as any.
    const values: any = {};
    const state = readPlanState(values);
    expectTypeOf(state).toEqualTypeOf<PlanningHistoryState>();
    expectTypeOf(state.plan).toEqualTypeOf<Plan | null>();
    expectTypeOf(state.planHistory).toEqualTypeOf<readonly PlanRevision[]>();
  });

  it("matches the middleware's state schemas, channel for channel", () => {
    expectTypeOf<PlanningStateSchema['State']>().toExtend<PlanningState>();
    expectTypeOf<PlanningHistoryStateSchema['State']>().toExtend<PlanningHistoryState>();
    expectTypeOf<PlanningState['plan']>().toEqualTypeOf<PlanningStateSchema['State']['plan']>();
    expectTypeOf<PlanningHistoryState['planHistory']>().toEqualTypeOf<
      PlanningHistoryStateSchema['State']['planHistory']
    >();
    // A state without the history channel is not a history state.
    expectTypeOf<PlanningStateSchema['State']>().not.toExtend<PlanningHistoryState>();
  });
});
