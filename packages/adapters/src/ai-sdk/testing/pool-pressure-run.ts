import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { expect } from 'vitest';
import { MemoryStore } from '../../persistence/stores/memory-store.ts';
import { createSessionPool } from '../../sessions/create-session-pool.ts';
import { countingStore } from '../../sessions/testing/counting-store.ts';
import type { AISDKContext } from '../ai-sdk-context.ts';
import { toAISDKTools } from '../to-ai-sdk-tools.ts';
import type { AISDKMajor } from './ai-sdk-host-run.ts';
import { sleep, toolCall, usage } from './chat-script.ts';

type Chat = { chatId?: string | undefined };
const TOOLS = createPlanningTools(new Session());

/**
 * Three conversations at once through one AI SDK major's `generateText`, with a pool of one
 * live session: each first step calls setup, mark, add and mark in one response, and the
 * model and the setup call are slow, so the pool must evict between conversations while
 * steps are in flight. Every call must apply, in model order, to one copy per conversation.
 */
export async function poolOfOneThreeChats(
  major: AISDKMajor,
  toolsContext: (tools: object, chatId: string) => Record<string, unknown>,
): Promise<void> {
  const store = countingStore(new MemoryStore());
  const pool = createSessionPool({ store, max: 1 });
  const tools = toAISDKTools(TOOLS, {
    session: pool.resolver(({ context }: AISDKContext<Chat>) => context?.chatId),
  });
  // A slow setup: the step's later calls are announced, and wait for it in model order.
  const setup = tools['planning_setup_plan'] as { execute: (...args: never[]) => unknown };
  const execute = setup.execute;
  setup.execute = async (...args: never[]) => {
    await sleep(5);
    return execute(...args);
  };
  const run = (chatId: string, delay: number) => {
    let step = 0;
    const model = new major.MockModel({
      doGenerate: async () => {
        step += 1;
        await sleep(delay);
        return {
          content:
            step === 1
              ? [
                  toolCall(`${chatId}-1`, 'planning_setup_plan', {
                    objective: `Ship ${chatId}`,
                    initial_steps: [{ title: 'draft' }, { title: 'review' }],
                  }),
                  toolCall(`${chatId}-2`, 'planning_mark_step', {
                    step_id: 'S001',
                    status: 'done',
                  }),
                  toolCall(`${chatId}-3`, 'planning_add_step', { steps: [{ title: 'ship' }] }),
                  toolCall(`${chatId}-4`, 'planning_mark_step', {
                    step_id: 'S003',
                    status: 'in_progress',
                  }),
                ]
              : [{ type: 'text' as const, text: 'Done.' }],
          finishReason: {
            unified: step === 1 ? ('tool-calls' as const) : ('stop' as const),
            raw: undefined,
          },
          usage,
          warnings: [],
        };
      },
    });
    return major.generateText({
      model,
      prompt: `Plan ${chatId}.`,
      tools,
      ...toolsContext(tools, chatId),
      stopWhen: major.stepCountIs(4),
    });
  };
  const chats = ['chat-a', 'chat-b', 'chat-c'];
  const results = await Promise.all(chats.map((chatId, index) => run(chatId, 3 + 2 * index)));
  for (const result of results) {
    const parts = result.steps[0].content as { type: string; error?: unknown }[];
    const errors = parts.filter((part) => part.type === 'tool-error').map((part) => part.error);
    expect(errors).toEqual([]);
    expect(parts.filter((part) => part.type === 'tool-result')).toHaveLength(4);
  }
  for (const chatId of chats) {
    const plan = await pool.run(chatId, (session) => selectLatest(session, Plan));
    if (!plan.ok) throw plan.error;
    expect(plan.value?.objective).toBe(`Ship ${chatId}`);
    expect(plan.value?.steps.map((step) => [step.step_id, step.status])).toEqual([
      ['S001', 'done'],
      ['S002', 'pending'],
      ['S003', 'in_progress'],
    ]);
  }
  // One store load per admission: never a reload in a loop while a conversation waits.
  const stats = pool.stats();
  expect(store.loads).toBe(stats.loads);
  expect(stats.loads).toBeLessThanOrEqual(stats.evictions + 1);
  await pool.close();
}
