import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { toAISDKTools } from './to-ai-sdk-tools.ts';

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const toolCall = (id: string, toolName: string, input: unknown) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName,
  input: typeof input === 'string' ? input : JSON.stringify(input),
});

describe('toAISDKTools with generateText and the AI SDK mock model', () => {
  it('runs a multi-step loop, sending refusals back as error-text the model then fixes', async () => {
    const session = new Session({ sessionId: 'ai-sdk', clock: () => 1 });
    const tools = createPlanningTools(session);
    const prompts: unknown[] = [];
    const steps = [
      [
        toolCall('c1', 'planning_setup_plan', {
          objective: 'Ship v2',
          initial_steps: [{ title: 'Draft' }],
        }),
        toolCall('c2', 'planning_mark_step', { step_id: 'S9', status: 'done' }),
      ],
      [toolCall('c3', 'planning_mark_step', { step_id: 'S001', status: 'done' })],
    ];
    let seenTools: unknown;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        seenTools ??= options.tools;
        const content = steps.shift() ?? [{ type: 'text' as const, text: 'All done.' }];
        return {
          content,
          finishReason: {
            unified: content[0]?.type === 'tool-call' ? 'tool-calls' : 'stop',
            raw: undefined,
          },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      prompt: 'Plan v2.',
      tools: toAISDKTools(tools, { session }),
      stopWhen: stepCountIs(5),
    });

    expect(result.text).toBe('All done.');
    expect(
      (seenTools as { name: string; inputSchema: unknown }[]).map((t) => [t.name, t.inputSchema]),
    ).toEqual(tools.map((tool) => [tool.name, toolJsonSchema(tool)]));
    const secondPrompt = JSON.stringify(prompts[1]);
    expect(secondPrompt).toContain('"type":"text","value":"Plan initialised with 1 step."');
    expect(secondPrompt).toContain(
      '"type":"error-text","value":"Tool validation failed: Step S9 does not exist."',
    );
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });
});
