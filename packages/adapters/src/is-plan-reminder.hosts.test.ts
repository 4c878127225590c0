import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { MemorySaver } from '@langchain/langgraph';
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { isPlanReminder, renderPlanReminder } from '@plankit/prompt';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { generateText as generateText7 } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { planReminderStep } from './ai-sdk/plan-reminder-step.ts';
import { usage } from './ai-sdk/testing/chat-script.ts';
import { planningMiddleware } from './langgraph/planning-middleware.ts';

// @plankit/prompt's isPlanReminder on what the real hosts hand a scripted model when a plankit
// adapter puts the reminder last: the AI SDK's provider prompt, LangChain's messages.

async function sessionWithPlan(): Promise<Session> {
  const session = new Session();
  const { planning_setup_plan: setup } = createPlanningTools(session);
  if (setup === undefined) throw new Error('no setup tool');
  await invokeTool(setup, { objective: 'Ship', initial_steps: [{ title: 'Build' }] }, { session });
  return session;
}

const done = {
  content: [{ type: 'text' as const, text: 'Done.' }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
};

describe('isPlanReminder on the messages hosts hand a model', () => {
  it('finds the reminder planReminderStep puts last in the AI SDK 6 and 7 prompt', async () => {
    const session = await sessionWithPlan();
    const prompts: unknown[][] = [];
    const step = planReminderStep({ session, render: renderPlanReminder });
    await generateText({
      model: new MockLanguageModelV3({
        doGenerate: async (options) => {
          prompts.push(options.prompt);
          return done;
        },
      }),
      prompt: 'Plan the release.',
      prepareStep: step,
    });
    await generateText7({
      model: new MockLanguageModelV4({
        doGenerate: async (options) => {
          prompts.push(options.prompt);
          return done;
        },
      }),
      prompt: 'Plan the release.',
      prepareStep: step as never,
    });
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) {
      expect(isPlanReminder(prompt.at(-1))).toBe(true);
      // What the user said is the last message that is not the reminder.
      const said = prompt.filter((message) => !isPlanReminder(message));
      expect(said).toHaveLength(prompt.length - 1);
      expect(JSON.stringify(said.at(-1))).toContain('Plan the release.');
    }
  });

  it("finds the reminder planningMiddleware puts last in a LangChain model's messages, live and as JSON", async () => {
    const seen: BaseMessage[][] = [];
    class ScriptedChatModel extends BaseChatModel {
      readonly script = [
        new AIMessage({
          content: '',
          tool_calls: [
            {
              id: 'c1',
              name: 'planning_setup_plan',
              args: { objective: 'Ship', initial_steps: [{ title: 'Build' }] },
              type: 'tool_call',
            },
          ],
        }),
      ];
      _llmType(): string {
        return 'scripted';
      }
      override bindTools(): this {
        return this;
      }
      async _generate(messages: BaseMessage[]): Promise<ChatResult> {
        seen.push(messages);
        const message = this.script.shift() ?? new AIMessage('Planned.');
        return { generations: [{ text: '', message }] };
      }
    }
    const agent = createAgent({
      model: new ScriptedChatModel({}),
      middleware: [planningMiddleware({ reminder: renderPlanReminder })],
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(
      { messages: [new HumanMessage('Plan the release.')] },
      { configurable: { thread_id: 'reminder-1' } },
    );
    // No plan before the first call, so no reminder; the plan's reminder last in the second.
    expect(seen.map((messages) => messages.some(isPlanReminder))).toEqual([false, true]);
    const second = seen[1] ?? [];
    const last = second.at(-1);
    expect(isPlanReminder(last)).toBe(true);
    expect(isPlanReminder(JSON.parse(JSON.stringify(last)))).toBe(true);
    const said = second.filter((message) => !isPlanReminder(message));
    expect(said.at(-1)?.type).toBe('tool');
    expect(said.filter((message) => message.type === 'human').map((m) => m.content)).toEqual([
      'Plan the release.',
    ]);
  });
});
