import { createAnthropicToolset } from '@plankit/adapters/anthropic';
import { clip, type EvalHost, type HostTrialInput, type HostTrialOutput } from './eval-host.ts';

/** The part of an Anthropic message the host reads. @public */
export interface AnthropicMessageLike {
  /** The content blocks. */
  readonly content: readonly {
    /** `text`, `tool_use`, ... */
    readonly type: string;
    /** A text block's text. */
    readonly text?: string | undefined;
    /** A tool_use block's id. */
    readonly id?: string | undefined;
    /** A tool_use block's input. */
    readonly input?: unknown;
  }[];
  /** `tool_use` while the model is calling tools. */
  readonly stop_reason?: string | null | undefined;
  /** Token usage. */
  readonly usage?:
    | {
        /** Uncached input tokens. */
        readonly input_tokens: number;
        /** Output tokens. */
        readonly output_tokens: number;
        /** Input tokens read from the cache. */
        readonly cache_read_input_tokens?: number | null | undefined;
      }
    | undefined;
}

/**
 * The request body the host sends to `messages.create`: a structural subset of
 * `@anthropic-ai/sdk`'s `MessageCreateParamsNonStreaming`, so the real method fits.
 *
 * @public
 */
export interface AnthropicRequestLike {
  /** The model. */
  readonly model: string;
  /** The system prompt. */
  readonly system?: string | readonly unknown[] | undefined;
  /** The conversation, user and assistant turns alternating. */
  readonly messages: readonly unknown[];
  /** The tools, from `createAnthropicToolset(...).tools`. */
  readonly tools?: readonly unknown[] | undefined;
  /** The most output tokens of the call. */
  readonly max_tokens: number;
  /** The host never streams. */
  readonly stream?: false | undefined;
}

/**
 * The part of an `@anthropic-ai/sdk` client the host calls: `messages.create`. Typed
 * structurally against the real SDK, so `new Anthropic()` is accepted without a cast (a type
 * test proves it).
 *
 * @public
 */
export interface AnthropicClientLike {
  /** The messages namespace. */
  readonly messages: {
    /** Creates a message (the SDK's non-streaming overload). */
    create(
      body: AnthropicRequestLike,
      options?: { readonly signal?: AbortSignal | null | undefined },
    ): PromiseLike<AnthropicMessageLike>;
  };
}

/** Options of {@link anthropicHost}. @public */
export interface AnthropicHostOptions {
  /** The user's client, e.g. `new Anthropic()`. */
  readonly client: AnthropicClientLike;
  /** The model, also the price table key. */
  readonly model: string;
}

/**
 * A host on the Anthropic Messages API with the tools from `createAnthropicToolset`: one
 * `messages.create` per turn, then `runToolUses`.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * const host = anthropicHost({ client: new Anthropic(), model: 'claude-sonnet-4-5' });
 * ```
 * @public
 */
export function anthropicHost(options: AnthropicHostOptions): EvalHost {
  return {
    kind: 'anthropic',
    modelId: options.model,
    async runTrial(input: HostTrialInput): Promise<HostTrialOutput> {
      const toolset = createAnthropicToolset(input.tools);
      const messages: unknown[] = [{ role: 'user', content: input.prompt }];
      let text = '';
      for (let turn = 1; turn <= input.maxTurns; turn++) {
        if (input.signal.aborted) return { text, stop: 'aborted', turns: turn - 1 };
        const reminder = turn > 1 ? input.reminder(turn) : undefined;
        // Anthropic wants user and assistant to alternate: the reminder joins the last user turn.
        const sent = reminder === undefined ? messages : withReminder(messages, reminder);
        if (reminder !== undefined) input.record({ kind: 'reminder', turn, text: reminder });
        const outcome = await input.callModel(
          { system: input.system, messages: sent },
          () =>
            options.client.messages.create(
              {
                model: options.model,
                system: input.system,
                messages: sent,
                tools: [...toolset.tools],
                max_tokens: input.maxOutputTokens,
              },
              { signal: input.signal },
            ),
          (message) => {
            const cached = message.usage?.cache_read_input_tokens ?? 0;
            return {
              inputTokens: (message.usage?.input_tokens ?? 0) + cached,
              outputTokens: message.usage?.output_tokens ?? 0,
              cachedInputTokens: cached,
            };
          },
        );
        if (!outcome.ok)
          return { text, stop: outcome.stop, turns: outcome.called ? turn : turn - 1 };
        const reply = outcome.value;
        text = reply.content
          .filter((block) => block.type === 'text')
          .map((block) => block.text ?? '')
          .join('');
        input.record({ kind: 'assistant', turn, text });
        messages.push({ role: 'assistant', content: reply.content });
        const uses = reply.content.filter((block) => block.type === 'tool_use');
        if (uses.length === 0) {
          const next = await input.afterAnswer(text, turn);
          if (next === undefined) return { text, stop: 'done', turns: turn };
          messages.push({ role: 'user', content: next });
          continue;
        }
        const results = await toolset.runToolUses(reply.content, { session: input.session });
        for (const record of results) {
          const content = record.block.content;
          input.record({
            kind: 'tool',
            turn,
            name: record.name,
            input: uses.find((use) => use.id === record.toolUseId)?.input,
            ok: record.result.success,
            output: clip(typeof content === 'string' ? content : JSON.stringify(content)),
          });
        }
        messages.push({ role: 'user', content: results.map((record) => record.block) });
      }
      return { text, stop: 'max_turns', turns: input.maxTurns };
    },
  };
}

function withReminder(messages: readonly unknown[], reminder: string): unknown[] {
  const last = messages[messages.length - 1] as { role?: string; content?: unknown } | undefined;
  if (last?.role !== 'user') return [...messages, { role: 'user', content: reminder }];
  const content = Array.isArray(last.content)
    ? [...last.content, { type: 'text', text: reminder }]
    : [
        { type: 'text', text: String(last.content) },
        { type: 'text', text: reminder },
      ];
  return [...messages.slice(0, -1), { role: 'user', content }];
}
