import type { PlanDataTypes } from '@plankit/adapters/ai-sdk';
import type { UIMessage as UIMessageV6 } from 'ai';
import type { UIMessage as UIMessageV7 } from 'ai-v7';
import { describe, expectTypeOf, it } from 'vitest';
import { latestPlan, type PlanMessage } from './latest-plan.ts';
import { usePlan } from './use-plan.ts';

describe('usePlan types', () => {
  it("takes useChat's messages of ai 6 and ai 7, with or without the plan's data types", () => {
    expectTypeOf<UIMessageV6[]>().toExtend<readonly PlanMessage[]>();
    expectTypeOf<UIMessageV6<unknown, PlanDataTypes>[]>().toExtend<readonly PlanMessage[]>();
    expectTypeOf<UIMessageV7[]>().toExtend<readonly PlanMessage[]>();
    expectTypeOf<UIMessageV7<unknown, PlanDataTypes>[]>().toExtend<readonly PlanMessage[]>();
    expectTypeOf(usePlan).toBeCallableWith([] as UIMessageV6[]);
    expectTypeOf(latestPlan).toBeCallableWith([] as UIMessageV7[]);
  });

  it('refuses what is not a list of messages', () => {
    // @ts-expect-error: a message needs its id
    usePlan([{ parts: [] }]);
    // @ts-expect-error: parts are objects with a type
    latestPlan([{ id: 'a', role: 'assistant', parts: ['data-plan'] }]);
    // @ts-expect-error: a message needs its role, since only the assistant's carry the plan
    latestPlan([{ id: 'a', parts: [] }]);
  });
});
