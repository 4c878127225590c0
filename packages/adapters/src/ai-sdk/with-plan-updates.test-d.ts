import { Session } from '@plankit/core';
import type { PlanView } from '@plankit/core/plan-view';
import {
  createUIMessageStream,
  type FlexibleSchema,
  type UIMessage,
  type UIMessageStreamWriter,
  validateUIMessages,
} from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { type PlanDataTypes, planDataPartSchemas } from './plan-data-part.ts';
import { withPlanUpdates } from './with-plan-updates.ts';

type ChatMessage = UIMessage<unknown, PlanDataTypes & { notice: string }>;

// Under ai 7 the same usage is checked by packages/adapters/types-ai-v7/plan-updates.ts.
describe('withPlanUpdates and the plan part types (ai 6)', () => {
  it('fits createUIMessageStream, with the writer typed for the app message', () => {
    void createUIMessageStream<ChatMessage>({
      execute: withPlanUpdates({ session: new Session() }, ({ writer }) => {
        expectTypeOf(writer).toExtend<UIMessageStreamWriter<ChatMessage>>();
        writer.write({ type: 'data-notice', data: 'planning' });
      }),
    });
  });

  it('takes the schemas as dataSchemas, and gives a PlanView for a validated part', async () => {
    // ai 6's InferUIDataParts reads a zod 4 schema's type poorly; the schema does fit the
    // FlexibleSchema its dataSchemas and useChat's dataPartSchemas take.
    expectTypeOf(planDataPartSchemas.plan).toExtend<FlexibleSchema<PlanView>>();
    const [message] = await validateUIMessages<ChatMessage>({
      messages: [],
      dataSchemas: planDataPartSchemas,
    });
    const part = message?.parts.find((p) => p.type === 'data-plan');
    if (part?.type === 'data-plan') expectTypeOf(part.data).toEqualTypeOf<PlanView>();
  });
});
