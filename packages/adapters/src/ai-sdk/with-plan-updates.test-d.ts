import { Session } from '@plankit/core';
import type { PlanView } from '@plankit/core/plan-view';
import {
  type ChatInit,
  createUIMessageStream,
  type InferUIDataParts,
  type UIMessage,
  type UIMessageStreamWriter,
  validateUIMessages,
} from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { type PlanDataTypes, planDataPartSchemas } from './plan-data-part.ts';
import { withPlanUpdates } from './with-plan-updates.ts';

type ChatMessage = UIMessage<unknown, PlanDataTypes & { notice: string }>;
type PlanPart<M extends UIMessage> = Extract<M['parts'][number], { type: 'data-plan' }>;

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

  it('infers exactly PlanDataTypes from the schemas, and a PlanView for the part', () => {
    // Exact, not assignable: a key losing `readonly` or a schema inferring a wider or
    // narrower type than PlanView fails here.
    expectTypeOf<InferUIDataParts<typeof planDataPartSchemas>>().toEqualTypeOf<PlanDataTypes>();
    type Inferred = UIMessage<unknown, InferUIDataParts<typeof planDataPartSchemas>>;
    expectTypeOf<Inferred>().toEqualTypeOf<UIMessage<unknown, PlanDataTypes>>();
    expectTypeOf<PlanPart<Inferred>['data']>().toEqualTypeOf<PlanView | null>();
  });

  it("types the app's message from its own schemas merged with the plan's", () => {
    const dataPartSchemas = { ...planDataPartSchemas, notice: z.string() };
    type Merged = UIMessage<unknown, InferUIDataParts<typeof dataPartSchemas>>;
    expectTypeOf<Merged>().toEqualTypeOf<ChatMessage>();
    expectTypeOf<PlanPart<Merged>['data']>().toEqualTypeOf<PlanView | null>();
    expectTypeOf(dataPartSchemas).toExtend<NonNullable<ChatInit<ChatMessage>['dataPartSchemas']>>();
  });

  it('takes the schemas as dataSchemas, and gives a PlanView for a validated part', async () => {
    const [message] = await validateUIMessages<ChatMessage>({
      messages: [],
      dataSchemas: planDataPartSchemas,
    });
    const part = message?.parts.find((p) => p.type === 'data-plan');
    if (part?.type === 'data-plan') expectTypeOf(part.data).toEqualTypeOf<PlanView | null>();
  });
});
