import { createPlanningTools, Session } from '@plankit/core';
import { renderPlanReminder } from '@plankit/prompt';
import { generateText, isStepCount, streamText, type ToolSet } from 'ai-v7';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai-v7/test';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool } from '../sessions/create-session-pool.ts';
import type { AISDKContext } from './ai-sdk-context.ts';
import type { AISDKToolError } from './ai-sdk-tool-error.ts';
import { planFinished } from './plan-finished.ts';
import { planReminderStep } from './plan-reminder-step.ts';
import { describeAISDKSessions } from './testing/ai-sdk-sessions-cases.ts';
import { type Call, chatScript, type SeenStep, sleep, stepResult } from './testing/chat-script.ts';
import { toAISDKContext, toAISDKToolsContext } from './to-ai-sdk-context.ts';
import { toAISDKTools as toTools } from './to-ai-sdk-tools.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7 (it runs
// on Node 20 here). The cases both majors share are written once in
// testing/ai-sdk-sessions-cases.ts; the ones below use what only ai 7 has.
vi.mock('ai', () => import('ai-v7'));

type Chat = { chatId?: string | undefined };
const TOOLS = createPlanningTools(new Session());

/** The adapter's tools, typed for ai@7 (the published types resolve `ai` to whichever major is installed). */
const toAISDKTools = <C>(...args: Parameters<typeof toTools<C>>): ToolSet =>
  toTools(...args) as unknown as ToolSet;

/** A mock model (ai 7) answering each step with the next calls, then with text. */
function scripted(steps: Call[][], seen: SeenStep[] = [], delay = 0) {
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      seen.push({
        prompt: options.prompt,
        tools: (options.tools ?? []).map((tool) => tool.name),
      });
      await sleep(delay);
      return stepResult(steps.shift(), 'Done.');
    },
  });
}

function chatPool() {
  const pool = createSessionPool({ store: new MemoryStore(), max: 10 });
  const session = pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId);
  return { pool, session, tools: toAISDKTools(TOOLS, { session }) };
}

describeAISDKSessions({
  name: 'ai 7, toolsContext and runtimeContext',
  generateText,
  streamText,
  stepCountIs: isStepCount,
  MockModel: MockLanguageModelV4,
  convertArrayToReadableStream,
  system: 'instructions',
  contexts: (tools, context) => toAISDKContext(tools, context),
});

describe('toAISDKTools with a session per conversation (ai 7 only: contextSchema)', () => {
  it('validates each tool context with contextSchema, and refuses a context naming no conversation', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const seen: SeenStep[] = [];
    const tools = toAISDKTools(TOOLS, {
      session: pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId),
      contextSchema: z.object({ chatId: z.string().optional() }),
    });
    const result = await generateText({
      model: scripted(chatScript('Orphan', 'o'), seen),
      prompt: 'Plan.',
      tools,
      toolsContext: toAISDKToolsContext(tools, {}) as never,
      stopWhen: isStepCount(2),
    });
    const part = result.steps[0]?.content.find((p) => p.type === 'tool-error');
    expect(part?.type === 'tool-error' && (part.error as AISDKToolError).code).toBe(
      'session_unresolved',
    );
    expect(JSON.stringify(seen[1]?.prompt)).toContain(
      '"type":"error-text","value":"Tool validation failed: The call\'s context names no conversation',
    );
    expect(pool.size).toBe(0);
    // A context the schema rejects is ai 7's own validation error, before any tool runs.
    await expect(
      generateText({
        model: scripted(chatScript('Bad', 'b')),
        prompt: 'Plan.',
        tools,
        toolsContext: toAISDKToolsContext(tools, { chatId: 42 }) as never,
      }),
    ).rejects.toThrow(/tool context/i);
    expect(pool.size).toBe(0);
    await pool.close();
  });
});

describe('planReminderStep and planFinished with generateText (ai 7 only: its two contexts)', () => {
  for (const [name, contexts] of [
    [
      'toAISDKContext (both contexts at once)',
      (tools: ToolSet) => toAISDKContext(tools, { chatId: 'chat-d' }),
    ],
    [
      'toolsContext alone',
      (tools: ToolSet) => ({ toolsContext: toAISDKToolsContext(tools, { chatId: 'chat-d' }) }),
    ],
  ] as const) {
    it(`names the conversation to the step helpers through ${name}`, async () => {
      const { pool, session, tools } = chatPool();
      const seen: SeenStep[] = [];
      const errors: unknown[] = [];
      const result = await generateText({
        model: scripted(chatScript('Ship D', 'd'), seen),
        prompt: 'Plan D.',
        tools,
        ...(contexts(tools) as object),
        prepareStep: planReminderStep({
          session,
          render: renderPlanReminder,
          onError: (error) => errors.push(error),
        }) as never,
        stopWhen: [planFinished({ session }), isStepCount(10)],
      });
      expect(errors).toEqual([]);
      expect(result.steps).toHaveLength(2);
      expect(JSON.stringify(seen[1]?.prompt)).toContain('Objective: Ship D');
      await pool.close();
    });
  }
});
