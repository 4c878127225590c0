import { AISDKToolError, type AISDKToolOutput, toAISDKTools } from '@plankit/adapters/ai-sdk';
import type { LanguageModel, ModelMessage } from 'ai';
import { clip, type EvalHost, type HostTrialInput, type HostTrialOutput } from './eval-host.ts';

/** Options of {@link aiSdkHost}. @public */
export interface AISdkHostOptions {
  /** Any AI SDK language model (`openai('gpt-5-mini')`, `anthropic(...)`, a mock from `ai/test`). */
  readonly model: LanguageModel;
  /** The id prices are looked up by; the model's own `modelId` by default. */
  readonly modelId?: string | undefined;
  /** Provider options passed to every call, merged with the trial's `plankitEval` entry. */
  readonly providerOptions?: Record<string, Record<string, unknown>> | undefined;
}

function modelIdOf(model: LanguageModel): string {
  return typeof model === 'string' ? model : model.modelId;
}

/**
 * A host on the AI SDK's `generateText`, with the tools converted by `toAISDKTools`: covers every
 * provider the AI SDK supports. One `generateText` call per turn, so the budget guard is asked
 * before each model call and a plan reminder can be added between turns. Each call carries
 * `providerOptions.plankitEval` = `{ seed, trialKey }` (providers ignore namespaces they do not
 * know; scripted models read it to stay deterministic under concurrency).
 *
 * @example
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * const host = aiSdkHost({ model: openai('gpt-5-mini') });
 * ```
 * @public
 */
export function aiSdkHost(options: AISdkHostOptions): EvalHost {
  const modelId = options.modelId ?? modelIdOf(options.model);
  return {
    kind: 'ai-sdk',
    modelId,
    async runTrial(input: HostTrialInput): Promise<HostTrialOutput> {
      const { generateText } = await import('ai');
      const tools = toAISDKTools(input.tools, { session: input.session });
      const messages: ModelMessage[] = [{ role: 'user', content: input.prompt }];
      let text = '';
      for (let turn = 1; turn <= input.maxTurns; turn++) {
        if (input.signal.aborted) return { text, stop: 'aborted', turns: turn - 1 };
        const reminder = turn > 1 ? input.reminder(turn) : undefined;
        const sent: ModelMessage[] =
          reminder === undefined ? messages : [...messages, { role: 'user', content: reminder }];
        if (reminder !== undefined) input.record({ kind: 'reminder', turn, text: reminder });
        const outcome = await input.callModel(
          { system: input.system, messages: sent },
          () =>
            generateText({
              model: options.model,
              system: input.system,
              messages: sent,
              tools,
              maxOutputTokens: input.maxOutputTokens,
              abortSignal: input.signal,
              providerOptions: {
                ...options.providerOptions,
                plankitEval: { seed: input.seed, trialKey: input.trialKey },
              },
            }),
          ({ usage }) => ({
            inputTokens: usage.inputTokens ?? 0,
            outputTokens: usage.outputTokens ?? 0,
            cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
          }),
        );
        if (!outcome.ok)
          return { text, stop: outcome.stop, turns: outcome.called ? turn : turn - 1 };
        const result = outcome.value;
        text = result.text;
        input.record({ kind: 'assistant', turn, text: result.text });
        for (const part of result.content) {
          if (part.type === 'tool-result') {
            const output = part.output as AISDKToolOutput;
            input.record({
              kind: 'tool',
              turn,
              name: part.toolName,
              input: part.input,
              ok: true,
              output: clip(output.content),
            });
          } else if (part.type === 'tool-error') {
            const message = AISDKToolError.isInstance(part.error)
              ? part.error.message
              : String(part.error);
            input.record({
              kind: 'tool',
              turn,
              name: part.toolName,
              input: part.input,
              ok: false,
              output: clip(message),
            });
          }
        }
        messages.push(...result.response.messages);
        if (result.finishReason !== 'tool-calls') {
          const next = await input.afterAnswer(text, turn);
          if (next === undefined) return { text, stop: 'done', turns: turn };
          messages.push({ role: 'user', content: next });
        }
      }
      return { text, stop: 'max_turns', turns: input.maxTurns };
    },
  };
}
