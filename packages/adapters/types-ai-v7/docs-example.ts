import { AISDKToolError, type AISDKToolOutput, toAISDKTools } from '@plankit/adapters/ai-sdk';
import { createPlanningTools, Session } from '@plankit/core';
import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const session = new Session();
const tools = toAISDKTools(createPlanningTools(session), { session });

// Stands in for your provider's model: one step with three calls, then an answer.
const call = (toolCallId: string, toolName: string, input: object) =>
  ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }) as const;
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const replies = [
  [
    call('c1', 'planning_setup_plan', { objective: 'Ship v2', initial_steps: [{ title: 'Tag' }] }),
    call('c2', 'planning_mark_step', { step_id: 'S001', status: 'done' }),
    call('c3', 'planning_mark_step', { step_id: 'S009', status: 'done' }),
  ],
];
const model = new MockLanguageModelV4({
  doGenerate: async () => {
    const calls = replies.shift();
    if (calls)
      return {
        content: calls,
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    return {
      content: [{ type: 'text', text: 'Shipped.' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    };
  },
});

const result = await generateText({ model, prompt: 'Ship v2.', tools, stopWhen: isStepCount(5) });
for (const part of result.steps[0]?.content ?? []) {
  if (part.type === 'tool-result') {
    const output = part.output as AISDKToolOutput;
    console.log(`${part.toolCallId} ok: ${output.content}`);
  }
  if (part.type === 'tool-error' && AISDKToolError.isInstance(part.error))
    console.log(`${part.toolCallId} error (${part.error.code}): ${part.error.message}`);
}
console.log(result.text);
