// Type-checked with `ai` resolving to ai@7 (see ai-sdk-context.ts): the plan part's schemas
// type an ai 7 `UIMessage`, and `withPlanUpdates` fits ai 7's `createUIMessageStream` with the
// writer typed for that message, without a cast.
import {
  type AISDKContext,
  aisdkContext,
  type PlanDataTypes,
  planDataPartSchemas,
  toAISDKTools,
  withPlanUpdates,
} from '@plankit/adapters/ai-sdk';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { createPlanningTools, Session } from '@plankit/core';
import type { PlanView } from '@plankit/core/plan-view';
import {
  createUIMessageStream,
  type InferUIDataParts,
  type LanguageModel,
  streamText,
  type UIMessage,
  validateUIMessages,
} from 'ai';

declare const model: LanguageModel;
type Chat = { chatId: string };
type ChatMessage = UIMessage<unknown, PlanDataTypes & { notice: string }>;
const pool = createSessionPool({ store: new MemoryStore() });
const session = pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId);
const tools = toAISDKTools(createPlanningTools(new Session()), { session });

const inferred: InferUIDataParts<typeof planDataPartSchemas> = {} as PlanDataTypes;
void inferred;

void createUIMessageStream<ChatMessage>({
  execute: withPlanUpdates({ session, context: { chatId: 'c1' } }, ({ writer }) => {
    writer.write({ type: 'data-notice', data: 'planning' });
    writer.merge(
      streamText({
        model,
        prompt: 'Plan.',
        tools,
        ...aisdkContext(tools, { chatId: 'c1' }),
      }).toUIMessageStream<ChatMessage>(),
    );
  }),
});

export async function stored(messages: unknown[]): Promise<PlanView | undefined> {
  const valid = await validateUIMessages<ChatMessage>({
    messages,
    dataSchemas: planDataPartSchemas,
  });
  const part = valid[0]?.parts.find((p) => p.type === 'data-plan');
  return part?.type === 'data-plan' ? part.data : undefined;
}
