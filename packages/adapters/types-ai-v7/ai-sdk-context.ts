// Type-checked with `ai` resolving to ai@7, as in an app that installed only ai@7 (`npm run
// typecheck` runs this folder's tsconfig, which maps `ai` to the `ai-v7` alias): the tools
// carry their context type, so ai 7 takes `toolsContext` for them without a cast.
import {
  type AISDKContext,
  planFinished,
  planReminderStep,
  toAISDKContext,
  toAISDKTools,
  toAISDKToolsContext,
} from '@plankit/adapters/ai-sdk';
import { createSessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { createPlanningTools, Session } from '@plankit/core';
import { renderPlanReminder } from '@plankit/prompt';
import { generateText, isStepCount, type LanguageModel, streamText, type ToolSet } from 'ai';
import * as z from 'zod';

declare const model: LanguageModel;
type Chat = { chatId: string };
const pool = createSessionPool({ store: new MemoryStore() });
const session = pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId);
const tools = toAISDKTools(createPlanningTools(new Session()), { session });

void (tools satisfies ToolSet);

void generateText({
  model,
  prompt: 'Plan.',
  tools,
  ...toAISDKContext(tools, { chatId: 'chat-1' }),
  prepareStep: planReminderStep({ session, render: renderPlanReminder }),
  stopWhen: [planFinished({ session }), isStepCount(10)],
});

void streamText({
  model,
  prompt: 'Plan.',
  tools,
  toolsContext: toAISDKToolsContext(tools, { chatId: 'chat-1' }),
});

const validated = toAISDKTools(createPlanningTools(new Session()), {
  session,
  contextSchema: z.object({ chatId: z.string() }),
});
void generateText({
  model,
  prompt: 'Plan.',
  tools: validated,
  ...toAISDKContext(validated, { chatId: 'chat-2' }),
});

void generateText({
  model,
  prompt: 'Plan.',
  tools,
  // @ts-expect-error the tools' context is { chatId: string }
  toolsContext: toAISDKToolsContext(tools, { threadId: 'x' }),
});
