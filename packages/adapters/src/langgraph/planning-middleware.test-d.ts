import type { PlanRevision } from '@plankit/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { PlanHistoryUpdate } from './plan-history-channel.ts';
import {
  type PlanningHistoryMiddleware,
  type PlanningMiddleware,
  planningMiddleware,
} from './planning-middleware.ts';

describe('planningMiddleware types', () => {
  it('returns the history middleware (plan and planHistory channels) exactly with history: true', () => {
    expectTypeOf(planningMiddleware({ history: true })).toEqualTypeOf<PlanningHistoryMiddleware>();
    expectTypeOf(planningMiddleware()).toEqualTypeOf<PlanningMiddleware>();
    expectTypeOf(planningMiddleware({ history: false })).toEqualTypeOf<PlanningMiddleware>();
  });

  it('takes revisions to append, a whole history or null on planHistory', () => {
    expectTypeOf<{ append: PlanRevision[] }>().toExtend<PlanHistoryUpdate>();
    expectTypeOf<PlanRevision[]>().toExtend<PlanHistoryUpdate>();
    expectTypeOf<null>().toExtend<PlanHistoryUpdate>();
    expectTypeOf<{ append: string[] }>().not.toExtend<PlanHistoryUpdate>();
  });
});
