import {
  type CompactionOptions,
  type CompactionResult,
  compactWithPlan,
  type MessageShape,
} from './compact-with-plan.ts';

/**
 * The Anthropic Messages shape {@link compactAnthropicMessages} reads (`MessageParam` of
 * `@anthropic-ai/sdk`): the system prompt is a separate request field, so nothing leads the
 * list; content is a string or content blocks.
 *
 * @public
 */
export interface AnthropicMessageLike {
  /** `user` or `assistant`. */
  readonly role: string;
  /** A string, or blocks; `text` blocks are read, `tool_result` blocks answer a `tool_use`. */
  readonly content: unknown;
}

interface Block {
  readonly type?: unknown;
  readonly text?: unknown;
  /** A `tool_result` block's content: a string or blocks. */
  readonly content?: unknown;
}

const blocks = (message: AnthropicMessageLike): readonly Block[] =>
  Array.isArray(message.content)
    ? message.content.filter((b): b is Block => typeof b === 'object' && b !== null)
    : [];

/**
 * The text of content blocks, by newlines: `text` blocks, and the content of `tool_result`
 * blocks (a string, or `text` blocks). A tool result is text nobody vouches for, so an anchor
 * in it is reported like one in any other message.
 */
function blocksText(list: readonly Block[]): string {
  const texts: string[] = [];
  for (const block of list) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'tool_result') {
      const content = block.content;
      if (typeof content === 'string') texts.push(content);
      else if (Array.isArray(content))
        for (const inner of content as readonly unknown[]) {
          const { type, text } = (inner ?? {}) as Block;
          if (type === 'text' && typeof text === 'string') texts.push(text);
        }
    }
  }
  return texts.join('\n');
}

const anthropicShape: MessageShape<AnthropicMessageLike> = {
  name: 'compactAnthropicMessages',
  isPinned: () => false,
  continuesTurn: (message) =>
    message.role === 'user' && blocks(message).some((block) => block.type === 'tool_result'),
  textOf: (message) =>
    typeof message.content === 'string' ? message.content : blocksText(blocks(message)),
  // The plan is the second of the two text blocks of the summary message, and nothing else.
  planTextOf: (message) => {
    if (message.role !== 'user' || !Array.isArray(message.content)) return undefined;
    const content: readonly unknown[] = message.content;
    const [summary, plan] = blocks(message);
    return content.length === 2 &&
      summary?.type === 'text' &&
      plan?.type === 'text' &&
      typeof plan.text === 'string'
      ? plan.text
      : undefined;
  },
  build: (summary, plan) => [
    {
      role: 'user',
      content: [
        { type: 'text', text: summary },
        ...(plan === undefined ? [] : [{ type: 'text', text: plan }]),
      ],
    },
  ],
};

/**
 * {@link compactWithPlan} for Anthropic Messages lists (`MessageParam[]`): the summary and the
 * plan go in one `user` message as two `text` blocks (summary first), then the kept tail,
 * which never opens with a `user` message of `tool_result` blocks (the `assistant` message
 * with the `tool_use` is kept with it). Keep your `system` field as it is: the cached prefix
 * does not change.
 *
 * @example
 * ```ts
 * const { messages } = await compactAnthropicMessages({ messages: history, session, keep: 4, summarise });
 * await anthropic.messages.create({ model, system, tools, max_tokens: 1024, messages });
 * ```
 * @throws PromptRenderError `options_invalid` naming the field (see {@link compactWithPlan})
 * @public
 */
export function compactAnthropicMessages<M extends AnthropicMessageLike>(
  options: CompactionOptions<M>,
): Promise<CompactionResult<M>> {
  return compactWithPlan(options, anthropicShape as unknown as MessageShape<M>);
}
