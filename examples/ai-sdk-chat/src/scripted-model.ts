import { MockLanguageModelV3 } from 'ai/test';

/** One tool call the scripted model emits. */
export interface ScriptedCall {
  readonly toolName: string;
  readonly input: object;
}

/** One reply of the scripted model: tool calls, or the final text. */
export type ScriptedReply = readonly ScriptedCall[] | string;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * A model that plays back `replies` in order, standing in for a provider's model (such as
 * `openai('gpt-5')`): each reply is one step's tool calls or its final text. `delayMs` makes
 * each step take a while, so two conversations interleave. `prompts` collects what it was sent.
 */
export function scriptedModel(
  replies: ScriptedReply[],
  options: { readonly delayMs?: number; readonly prompts?: unknown[] } = {},
): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      options.prompts?.push(prompt);
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
      const reply = replies.shift() ?? 'Nothing left to do.';
      if (typeof reply === 'string')
        return {
          content: [{ type: 'text', text: reply }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      return {
        content: reply.map(({ toolName, input }) => ({
          type: 'tool-call' as const,
          toolCallId: `call_${calls++}`,
          toolName,
          input: JSON.stringify(input),
        })),
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}
