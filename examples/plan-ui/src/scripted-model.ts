import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { ScriptedStep } from './script.ts';

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /** How long each model step takes before its first chunk, in ms (0 in tests, longer in the demo). */
  readonly stepDelayMs?: number | undefined;
}

/** One chunk of a model's stream, as the mock model hands it to the AI SDK. */
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer T>
    ? T
    : never;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * A streaming model that plays `steps` back in order, one per model step, standing in for a
 * provider's model (`openai('gpt-5')`) without a network: tool calls, or the final text in a
 * few deltas. Past the last step it says `after`.
 */
export function scriptedModel(
  steps: readonly ScriptedStep[],
  after: string,
  { stepDelayMs = 0 }: ScriptedModelOptions = {},
): MockLanguageModelV3 {
  let next = 0;
  let calls = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      const step = steps[next++] ?? after;
      const chunks: StreamPart[] =
        typeof step === 'string'
          ? [
              { type: 'text-start' as const, id: 't' },
              ...(step.match(/[^ ]+ */g) ?? []).map((delta) => ({
                type: 'text-delta' as const,
                id: 't',
                delta,
              })),
              { type: 'text-end' as const, id: 't' },
              {
                type: 'finish' as const,
                finishReason: { unified: 'stop' as const, raw: undefined },
                usage,
              },
            ]
          : [
              ...step.map(({ toolName, input }) => ({
                type: 'tool-call' as const,
                toolCallId: `call_${calls++}`,
                toolName,
                input: JSON.stringify(input),
              })),
              {
                type: 'finish' as const,
                finishReason: { unified: 'tool-calls' as const, raw: undefined },
                usage,
              },
            ];
      return {
        stream: simulateReadableStream({
          chunks,
          initialDelayInMs: stepDelayMs,
          chunkDelayInMs: 0,
        }),
      };
    },
  });
}
