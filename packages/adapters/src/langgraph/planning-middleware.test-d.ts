import type { PlanRevision } from '@plankit/core/plan-model';
import { batch, history } from '@plankit/core/plan-model';
import { describe, expectTypeOf, it } from 'vitest';
import type { PlanHistoryUpdate } from './plan-history-channel.ts';
import {
  type PlanningHistoryMiddleware,
  type PlanningMiddleware,
  planningMiddleware,
} from './planning-middleware.ts';

describe('planningMiddleware types', () => {
  it('returns the history middleware (plan and planHistory channels) exactly with the history extension', () => {
    expectTypeOf(
      planningMiddleware({ extensions: [history()] }),
    ).toEqualTypeOf<PlanningHistoryMiddleware>();
    expectTypeOf(planningMiddleware()).toEqualTypeOf<PlanningMiddleware>();
    expectTypeOf(planningMiddleware({ extensions: [batch()] })).toEqualTypeOf<PlanningMiddleware>();
  });

  it('takes revisions to append, a whole history or null on planHistory', () => {
    expectTypeOf<{ append: PlanRevision[] }>().toExtend<PlanHistoryUpdate>();
    expectTypeOf<PlanRevision[]>().toExtend<PlanHistoryUpdate>();
    expectTypeOf<null>().toExtend<PlanHistoryUpdate>();
    expectTypeOf<{ append: string[] }>().not.toExtend<PlanHistoryUpdate>();
  });
});
