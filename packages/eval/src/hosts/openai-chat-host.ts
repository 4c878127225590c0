import { createOpenAIToolset } from '@plankit/adapters/openai';
import { clip, type EvalHost, type HostTrialInput, type HostTrialOutput } from './eval-host.ts';

/** The part of an OpenAI chat completion the host reads. @public */
export interface OpenAIChatCompletionLike {
  /** The choices; the first is used. */
  readonly choices: readonly {
    /** The assistant message. */
    readonly message: {
      /** Its text. */
      readonly content?: string | null | undefined;
      /** The tool calls it makes. */
      readonly tool_calls?: readonly unknown[] | null | undefined;
    };
    /** `tool_calls` while the model is calling tools. */
    readonly finish_reason?: string | null | undefined;
  }[];
  /** Token usage. */
  readonly usage?:
    | {
        /** Input tokens. */
        readonly prompt_tokens: number;
        /** Output tokens. */
        readonly completion_tokens: number;
        /** Cached input tokens. */
        readonly prompt_tokens_details?: { readonly cached_tokens?: number | undefined } | null;
      }
    | null
    | undefined;
}

/**
 * The request body the host sends to `chat.completions.create`: a structural subset of the
 * `openai` SDK's `ChatCompletionCreateParamsNonStreaming` (v6 and v7), so the real method fits.
 *
 * @public
 */
export interface OpenAIChatRequestLike {
  /** The model. */
  readonly model: string;
  /** The conversation: system, user, assistant and tool messages. */
  readonly messages: readonly unknown[];
  /** The function tools, from `createOpenAIToolset(...).chatTools`. */
  readonly tools?: readonly unknown[] | undefined;
  /** The most output tokens of the call. */
  readonly max_completion_tokens?: number | null | undefined;
  /** The host never streams. */
  readonly stream?: false | null | undefined;
}

/**
 * The part of an `openai` client the host calls: `chat.completions.create`. Typed structurally
 * against the real SDK, so `new OpenAI()` of `openai` v6 or v7 is accepted without a cast (a
 * type test proves it), as is any OpenAI-compatible client of the same shape.
 *
 * @public
 */
export interface OpenAIChatClientLike {
  /** The chat namespace. */
  readonly chat: {
    /** Its completions. */
    readonly completions: {
      /** Creates a completion (the SDK's non-streaming overload). */
      create(
        body: OpenAIChatRequestLike,
        options?: { readonly signal?: AbortSignal | null | undefined },
      ): PromiseLike<OpenAIChatCompletionLike>;
    };
  };
}

/** Options of {@link openAIChatHost}. @public */
export interface OpenAIChatHostOptions {
  /** The user's client, e.g. `new OpenAI()`. */
  readonly client: OpenAIChatClientLike;
  /** The model, also the price table key. */
  readonly model: string;
}

/**
 * A host on the OpenAI Chat Completions API with the tools from `createOpenAIToolset`: one
 * `chat.completions.create` per turn, then `runChatToolCalls`.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * const host = openAIChatHost({ client: new OpenAI(), model: 'gpt-5-mini' });
 * ```
 * @public
 */
export function openAIChatHost(options: OpenAIChatHostOptions): EvalHost {
  return {
    kind: 'openai',
    modelId: options.model,
    async runTrial(input: HostTrialInput): Promise<HostTrialOutput> {
      const toolset = createOpenAIToolset(input.tools);
      const messages: unknown[] = [
        { role: 'system', content: input.system },
        { role: 'user', content: input.prompt },
      ];
      let text = '';
      for (let turn = 1; turn <= input.maxTurns; turn++) {
        if (input.signal.aborted) return { text, stop: 'aborted', turns: turn - 1 };
        const reminder = turn > 1 ? input.reminder(turn) : undefined;
        const sent =
          reminder === undefined ? messages : [...messages, { role: 'user', content: reminder }];
        if (reminder !== undefined) input.record({ kind: 'reminder', turn, text: reminder });
        const outcome = await input.callModel(
          { messages: sent },
          () =>
            options.client.chat.completions.create(
              {
                model: options.model,
                messages: sent,
                tools: [...toolset.chatTools],
                max_completion_tokens: input.maxOutputTokens,
              },
              { signal: input.signal },
            ),
          (completion) => ({
            inputTokens: completion.usage?.prompt_tokens ?? 0,
            outputTokens: completion.usage?.completion_tokens ?? 0,
            cachedInputTokens: completion.usage?.prompt_tokens_details?.cached_tokens ?? 0,
          }),
        );
        if (!outcome.ok)
          return { text, stop: outcome.stop, turns: outcome.called ? turn : turn - 1 };
        const completion = outcome.value;
        const choice = completion.choices[0];
        const message = choice?.message;
        text = message?.content ?? '';
        input.record({ kind: 'assistant', turn, text });
        messages.push(message ?? { role: 'assistant', content: '' });
        const calls = message?.tool_calls ?? [];
        if (calls.length === 0) {
          const next = await input.afterAnswer(text, turn);
          if (next === undefined) return { text, stop: 'done', turns: turn };
          messages.push({ role: 'user', content: next });
          continue;
        }
        const replies = await toolset.runChatToolCalls(calls as never, {
          session: input.session,
        });
        for (const reply of replies) {
          const content = reply.message.content;
          input.record({
            kind: 'tool',
            turn,
            name: reply.name,
            input: findArguments(calls, reply.callId),
            ok: reply.result.success,
            output: clip(typeof content === 'string' ? content : JSON.stringify(content)),
          });
          messages.push(reply.message);
        }
      }
      return { text, stop: 'max_turns', turns: input.maxTurns };
    },
  };
}

function findArguments(calls: readonly unknown[], id: string): unknown {
  for (const call of calls) {
    const record = call as { id?: unknown; function?: { arguments?: unknown } };
    if (record.id !== id) continue;
    const raw = record.function?.arguments;
    if (typeof raw !== 'string') return raw;
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}
