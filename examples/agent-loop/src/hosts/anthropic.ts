import Anthropic from '@anthropic-ai/sdk';
import { createAnthropicToolset } from '@plankit/adapters/anthropic';
import type { CallReport, DriverContext, ModelDriver, TurnReport } from '../planning-job.ts';
import { finishTranscript, startReplayServer } from '../replay-server.ts';

/** Options of {@link createAnthropicDriver}. */
export interface AnthropicDriverOptions {
  /** A real API key: the live API answers. Without one, the transcript is replayed. */
  readonly apiKey?: string | undefined;
  readonly model?: string | undefined;
  readonly transcript: string;
  /** With a key, where to save the live responses as a new transcript. */
  readonly record?: string | undefined;
}

/** An Anthropic Messages loop: tool_use blocks in, tool_result blocks back. */
export async function createAnthropicDriver(
  context: DriverContext,
  options: AnthropicDriverOptions,
): Promise<ModelDriver> {
  const live = options.apiKey !== undefined && options.apiKey !== '';
  const replay = live ? undefined : await startReplayServer(options.transcript);
  const client = new Anthropic({
    apiKey: live ? options.apiKey : 'replay',
    ...(replay === undefined ? {} : { baseURL: replay.url }),
    maxRetries: live ? 2 : 0,
  });
  const model = options.model ?? 'claude-sonnet-5-5';
  const toolset = createAnthropicToolset(context.tools);
  const messages: Anthropic.MessageParam[] = [];
  const recorded: unknown[] = [];

  return {
    host: 'anthropic',
    model,
    live,
    async turn(instruction): Promise<TurnReport> {
      messages.push({ role: 'user', content: instruction });
      const calls: CallReport[] = [];
      const usage: { inputTokens: number; outputTokens: number }[] = [];
      for (let step = 0; step < 8; step++) {
        const response = await client.messages.create({
          model,
          max_tokens: 1024,
          system: context.system,
          messages,
          tools: [...toolset.tools],
        });
        recorded.push(response);
        context.tick();
        usage.push({
          inputTokens: response.usage.input_tokens,
          outputTokens: response.usage.output_tokens,
        });
        messages.push({ role: 'assistant', content: response.content });
        if (response.stop_reason !== 'tool_use') {
          const text = response.content
            .flatMap((block) => (block.type === 'text' ? [block.text] : []))
            .join('\n');
          return { calls, text, usage };
        }
        const records = await toolset.runToolUses(response.content, { session: context.session });
        messages.push({ role: 'user', content: records.map((record) => record.block) });
        for (const record of records)
          calls.push({
            tool: record.name,
            success: record.result.success,
            message: record.result.message,
          });
      }
      return { calls, text: '', usage };
    },
    async close() {
      await finishTranscript(replay, recorded, options.record, 'Anthropic');
    },
  };
}
