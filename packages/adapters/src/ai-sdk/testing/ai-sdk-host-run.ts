import { expect } from 'vitest';
import type { HostRun } from '../../testing/plan-model-cases.ts';
import { toAISDKTools } from '../to-ai-sdk-tools.ts';
import { toolCall, usage } from './chat-script.ts';

// Each major types its own options, results and mock model; the run only relies on the shapes
// both share, so it takes them untyped.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type PerMajor = any;

/** What one AI SDK major provides for the run: ai 6 and ai 7 differ only in these. */
export interface AISDKMajor {
  readonly generateText: (options: PerMajor) => Promise<PerMajor>;
  readonly stepCountIs: (count: number) => unknown;
  /** `MockLanguageModelV3` (ai 6) or `MockLanguageModelV4` (ai 7). */
  readonly MockModel: new (
    options: PerMajor,
  ) => unknown;
}

/**
 * A {@link HostRun} through one AI SDK major's `generateText`: a scripted model makes `call`
 * in its first step and stops in the second; the tools must be offered strict, and the call
 * comes back as a `tool-result` or a `tool-error` part.
 */
export function aiSdkHostRun({ generateText, stepCountIs, MockModel }: AISDKMajor): HostRun {
  return async (tools, session, call) => {
    let seen: { name: string; strict?: boolean }[] = [];
    let step = 0;
    const model = new MockModel({
      doGenerate: async (options: { tools: unknown }) => {
        seen = options.tools as typeof seen;
        step += 1;
        return {
          content:
            step === 1
              ? [toolCall('c1', call.name, call.args)]
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
    const parts: { type: string; error?: unknown; output?: unknown }[] =
      result.steps[0]?.content ?? [];
    const part = parts.find((p) => p.type === 'tool-result' || p.type === 'tool-error');
    if (part?.type === 'tool-error') return { error: true, text: (part.error as Error).message };
    if (part?.type === 'tool-result')
      return { error: false, text: (part.output as { content: string }).content };
    throw new Error('no tool part');
  };
}
