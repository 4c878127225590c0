import { generateText, stepCountIs, type ToolSet } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { describe, expect, it, vi } from 'vitest';
import { toAISDKTools as toTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { type HostRun, PLAN_MODEL_CASES, workCase } from './testing/plan-model-cases.ts';

// The adapter imports `ai`; here it gets ai@7, as in an app that installed only ai@7.
vi.mock('ai', () => import('ai-v7'));

const toAISDKTools = (...args: Parameters<typeof toTools>): ToolSet =>
  toTools(...args) as unknown as ToolSet;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

// Issue 16: each opt-in plan-model option through ai@7's generateText (the other hosts are in
// plan-model-options.test.ts).
const aiSdk7: HostRun = async (tools, session, call) => {
  let seen: { name: string; strict?: boolean }[] = [];
  let step = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      seen = options.tools as typeof seen;
      step += 1;
      return {
        content:
          step === 1
            ? [
                {
                  type: 'tool-call' as const,
                  toolCallId: 'c1',
                  toolName: call.name,
                  input: JSON.stringify(call.args),
                },
              ]
            : [{ type: 'text' as const, text: 'ok' }],
        finishReason: {
          unified: step === 1 ? ('tool-calls' as const) : ('stop' as const),
          raw: undefined,
        },
        usage,
        warnings: [],
      };
    },
  });
  const result = await generateText({
    model,
    prompt: 'go',
    tools: toAISDKTools(tools, { session }),
    stopWhen: stepCountIs(3),
  });
  expect(seen.map((tool) => [tool.name, tool.strict])).toEqual(
    tools.map((tool) => [tool.name, true]),
  );
  const part = result.steps[0]?.content.find(
    (p) => p.type === 'tool-result' || p.type === 'tool-error',
  );
  if (part?.type === 'tool-error') return { error: true, text: (part.error as Error).message };
  if (part?.type === 'tool-result')
    return { error: false, text: (part.output as { content: string }).content };
  throw new Error('no tool part');
};

describe('every plan-model option through AI SDK 7 (issue 16)', () => {
  for (const c of PLAN_MODEL_CASES) {
    it(`${c.option} through AI SDK 7 (generateText)`, async () => {
      await workCase(aiSdk7, c);
    });
  }
});
