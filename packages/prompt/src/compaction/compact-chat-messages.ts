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

/** The text of a chat message: its string content, or its text parts joined by newlines. */
export function chatText(message: ChatMessageLike): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'object' && part !== null && typeof part.text === 'string')
      texts.push(part.text);
  }
  return texts.join('\n');
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
