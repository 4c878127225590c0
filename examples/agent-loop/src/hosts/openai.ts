import { createOpenAIToolset } from '@plankit/adapters/openai';
import OpenAI from 'openai';
import type { CallReport, DriverContext, ModelDriver, TurnReport } from '../planning-job.ts';
import { finishTranscript, startReplayServer } from '../replay-server.ts';

/** Options of {@link createOpenAIDriver}. */
export interface OpenAIDriverOptions {
  /** A real API key: the live API answers. Without one, the transcript is replayed. */
  readonly apiKey?: string | undefined;
  readonly model?: string | undefined;
  readonly transcript: string;
  /** With a key, where to save the live responses as a new transcript. */
  readonly record?: string | undefined;
}

/** An OpenAI Chat Completions loop with strict tools. */
export async function createOpenAIDriver(
  context: DriverContext,
  options: OpenAIDriverOptions,
): Promise<ModelDriver> {
  const live = options.apiKey !== undefined && options.apiKey !== '';
  const replay = live ? undefined : await startReplayServer(options.transcript);
  const client = new OpenAI({
    apiKey: live ? options.apiKey : 'replay',
    ...(replay === undefined ? {} : { baseURL: `${replay.url}/v1` }),
    maxRetries: live ? 2 : 0,
  });
  const model = options.model ?? 'gpt-4.1';
  const toolset = createOpenAIToolset(context.tools, { strict: true });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: context.system },
  ];
  const recorded: unknown[] = [];

  return {
    host: 'openai',
    model,
    live,
    async turn(instruction): Promise<TurnReport> {
      messages.push({ role: 'user', content: instruction });
      const calls: CallReport[] = [];
      const usage: { inputTokens: number; outputTokens: number }[] = [];
      for (let step = 0; step < 8; step++) {
        const completion = await client.chat.completions.create({
          model,
          messages,
          tools: [...toolset.chatTools],
        });
        recorded.push(completion);
        context.tick();
        usage.push({
          inputTokens: completion.usage?.prompt_tokens ?? 0,
          outputTokens: completion.usage?.completion_tokens ?? 0,
        });
        const message = completion.choices[0]?.message;
        if (message === undefined) break;
        messages.push(message);
        if (!message.tool_calls?.length) return { calls, text: message.content ?? '', usage };
        for (const record of await toolset.runChatToolCalls(message.tool_calls, {
          session: context.session,
        })) {
          messages.push(record.message);
          calls.push({
            tool: record.name,
            success: record.result.success,
            message: record.result.message,
          });
        }
      }
      return { calls, text: '', usage };
    },
    async close() {
      await finishTranscript(replay, recorded, options.record, 'OpenAI');
    },
  };
}
