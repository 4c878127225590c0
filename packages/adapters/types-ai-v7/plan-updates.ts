// Type-checked with `ai` resolving to ai@7 (see ai-sdk-context.ts): ai 7's `InferUIDataParts`
// gives exactly `PlanDataTypes` for the plan part's schemas (as ai 6's does, checked by
// src/ai-sdk/with-plan-updates.test-d.ts), and `withPlanUpdates` fits ai 7's
// `createUIMessageStream` with the writer typed for that message, without a cast.
import {
  type AISDKContext,
  type PlanDataTypes,
  planDataPartSchemas,
  toAISDKContext,
  toAISDKTools,
  withPlanUpdates,
} from '@plankit/adapters/ai-sdk';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { createPlanningTools, Session } from '@plankit/core';
import type { PlanView } from '@plankit/core/plan-view';
import {
  type ChatInit,
  createUIMessageStream,
  type InferUIDataParts,
  type LanguageModel,
  streamText,
  type UIMessage,
  validateUIMessages,
} from 'ai';
import { expectTypeOf } from 'vitest';
import * as z from 'zod';

declare const model: LanguageModel;
type Chat = { chatId: string };
type ChatMessage = UIMessage<unknown, PlanDataTypes & { notice: string }>;
const pool = createSessionPool({ store: new MemoryStore() });
const session = pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId);
const tools = toAISDKTools(createPlanningTools(new Session()), { session });

type PlanPart<M extends UIMessage> = Extract<M['parts'][number], { type: 'data-plan' }>;

// Exact, not assignable: a key losing `readonly` or a schema inferring another type than
// PlanView fails here.
expectTypeOf<InferUIDataParts<typeof planDataPartSchemas>>().toEqualTypeOf<PlanDataTypes>();
type Inferred = UIMessage<unknown, InferUIDataParts<typeof planDataPartSchemas>>;
expectTypeOf<Inferred>().toEqualTypeOf<UIMessage<unknown, PlanDataTypes>>();
expectTypeOf<PlanPart<Inferred>['data']>().toEqualTypeOf<PlanView | null>();

const dataPartSchemas = { ...planDataPartSchemas, notice: z.string() };
type Merged = UIMessage<unknown, InferUIDataParts<typeof dataPartSchemas>>;
expectTypeOf<Merged>().toEqualTypeOf<ChatMessage>();
expectTypeOf<PlanPart<Merged>['data']>().toEqualTypeOf<PlanView | null>();
expectTypeOf(dataPartSchemas).toExtend<NonNullable<ChatInit<ChatMessage>['dataPartSchemas']>>();

void createUIMessageStream<ChatMessage>({
  execute: withPlanUpdates({ session, context: { chatId: 'c1' } }, ({ writer }) => {
    writer.write({ type: 'data-notice', data: 'planning' });
    writer.merge(
      streamText({
        model,
        prompt: 'Plan.',
        tools,
        ...toAISDKContext(tools, { chatId: 'c1' }),
      }).toUIMessageStream<ChatMessage>(),
    );
  }),
});

export async function stored(messages: unknown[]): Promise<PlanView | null | undefined> {
  const valid = await validateUIMessages<ChatMessage>({
    messages,
    dataSchemas: planDataPartSchemas,
  });
  const part = valid[0]?.parts.find((p) => p.type === 'data-plan');
  return part?.type === 'data-plan' ? part.data : undefined;
}
