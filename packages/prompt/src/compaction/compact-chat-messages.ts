import {
  type CompactionOptions,
  type CompactionResult,
  compactWithPlan,
  type MessageShape,
} from './compact-with-plan.ts';

/**
 * The chat message shape {@link compactChatMessages} reads: OpenAI Chat Completions
 * (`ChatCompletionMessageParam`), the AI SDK's `ModelMessage`, and any `{ role, content }`
 * list where content is a string or an array of parts with `{ type: 'text', text }`.
 *
 * @public
 */
export interface ChatMessageLike {
  /** `system` and `developer` lead the list; `tool` (and `function`) answer a call. */
  readonly role: string;
  /** A string, or parts; text parts are read for earlier compactions and stray anchors. */
  readonly content?: unknown;
}

const PINNED = new Set(['system', 'developer']);
const ANSWERS = new Set(['tool', 'function']);

/** The text of JSON a tool returned, or undefined when it is not JSON data. */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** The text items of an AI SDK tool result's `content` output, by newlines. */
function contentText(items: readonly unknown[]): string {
  const texts: string[] = [];
  for (const item of items) {
    const { type, text } = (item ?? {}) as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string') texts.push(text);
  }
  return texts.join('\n');
}

/**
 * The text of an AI SDK tool result's `output`: the value of `text` and `error-text`, the JSON
 * of `json` and `error-json`, the text items of `content`. A tool result is text nobody vouches
 * for, so an anchor in it is reported like one in any other message.
 */
function toolOutputText(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null) return undefined;
  const { type, value } = output as { type?: unknown; value?: unknown };
  switch (type) {
    case 'text':
    case 'error-text':
      return typeof value === 'string' ? value : undefined;
    case 'json':
    case 'error-json':
      return jsonText(value);
    case 'content':
      return Array.isArray(value) ? contentText(value) : undefined;
    default:
      return undefined;
  }
}

/** The text of content parts: text parts, and the output of AI SDK tool results, by newlines. */
function partsText(parts: readonly unknown[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'object' || part === null) continue;
    const { type, text, output } = part as { type?: unknown; text?: unknown; output?: unknown };
    if (typeof text === 'string') texts.push(text);
    else if (type === 'tool-result') {
      const result = toolOutputText(output);
      if (result !== undefined) texts.push(result);
    }
  }
  return texts.join('\n');
}

/**
 * The text of a chat message: its string content, or the text of its parts (text parts, and
 * the output of the AI SDK's `tool-result` parts) joined by newlines.
 */
export function chatText(message: ChatMessageLike): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? partsText(content) : '';
}

const chatShape: MessageShape<ChatMessageLike> = {
  name: 'compactChatMessages',
  isPinned: (message) => PINNED.has(message.role),
  continuesTurn: (message) => ANSWERS.has(message.role),
  textOf: chatText,
  planTextOf: (message) =>
    message.role === 'user' && typeof message.content === 'string' ? message.content : undefined,
  build: (summary, plan) => [
    { role: 'user', content: summary },
    ...(plan === undefined ? [] : [{ role: 'user', content: plan }]),
  ],
};

/**
 * {@link compactWithPlan} for chat message lists (OpenAI Chat Completions, the AI SDK's
 * `ModelMessage`, LangChain's `{ role, content }` message-likes, not `BaseMessage` instances): the leading `system` / `developer` messages are
 * kept, the summary and the plan follow as two `user` messages with string content, then the
 * kept tail, which never opens with a `tool` message (the assistant message that made the
 * call is kept with it).
 *
 * @example
 * ```ts
 * const { messages } = await compactChatMessages({
 *   messages: history, // ChatCompletionMessageParam[]
 *   session,
 *   keep: 6,
 *   summarise: async (old) => (await openai.chat.completions.create({ model, messages: [...old, { role: 'user', content: 'Summarise.' }] })).choices[0]?.message.content ?? '',
 * });
 * ```
 * @throws PromptRenderError `options_invalid` naming the field (see {@link compactWithPlan})
 * @public
 */
export function compactChatMessages<M extends ChatMessageLike>(
  options: CompactionOptions<M>,
): Promise<CompactionResult<M>> {
  return compactWithPlan(options, chatShape as unknown as MessageShape<M>);
}
