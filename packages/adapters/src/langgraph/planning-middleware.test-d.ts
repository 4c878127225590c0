import type { TextMode } from '@plankit/core';
import type { PlanRevision } from '@plankit/core/plan-model';
import { batch, history } from '@plankit/core/plan-model';
import { describe, expectTypeOf, it } from 'vitest';
import type { PlanChannelOptions } from './plan-edit.ts';
import type { PlanHistoryUpdate } from './plan-history-channel.ts';
import {
  type PlanningHistoryMiddleware,
  type PlanningMiddleware,
  type PlanningMiddlewareOptions,
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

  it('takes the text mode the tools take, on the middleware and the channel', () => {
    expectTypeOf<{ text: 'unicode' }>().toExtend<PlanningMiddlewareOptions>();
    expectTypeOf<{ text: 'utf8' }>().not.toExtend<PlanningMiddlewareOptions>();
    expectTypeOf<PlanningMiddlewareOptions['text']>().toEqualTypeOf<TextMode | undefined>();
    expectTypeOf<PlanChannelOptions['text']>().toEqualTypeOf<TextMode | undefined>();
  });
});
