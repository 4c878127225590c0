import {
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';

/**
 * How `compactWithPlan` of `@plankit/prompt` reads and writes LangChain messages: the same
 * structure as its `MessageShape<BaseMessage>`, declared here so this package needs no
 * dependency on the prompt package.
 *
 * @public
 */
export interface LangChainMessageShape {
  /** `langChainMessageShape`, for error messages. */
  readonly name: string;
  /** Leading `SystemMessage`s are kept, never summarised. */
  isPinned(message: BaseMessage): boolean;
  /** A `ToolMessage` answers the `AIMessage` before it, so it never opens the kept tail. */
  continuesTurn(message: BaseMessage): boolean;
  /** The message's text: string content, or its text blocks joined by newlines. */
  textOf(message: BaseMessage): string;
  /**
   * The plan text of a message in the form `build` writes it (a `HumanMessage` with string
   * content), else undefined: a `ToolMessage` or `AIMessage` is never read for a plan.
   */
  planTextOf(message: BaseMessage): string | undefined;
  /** The summary and the plan as `HumanMessage`s. */
  build(summary: string, plan: string | undefined): BaseMessage[];
}

function textOf(message: BaseMessage): string {
  const content: unknown = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'object' && part !== null && typeof part.text === 'string')
      texts.push(part.text);
  }
  return texts.join('\n');
}

/**
 * LangChain's `BaseMessage` lists for `compactWithPlan` (`@plankit/prompt`): leading
 * `SystemMessage`s stay, the summary and the plan follow as two `HumanMessage`s, then the
 * kept tail, which never opens with a `ToolMessage` (the `AIMessage` with its tool call is
 * kept with it).
 *
 * @example
 * ```ts
 * const { messages } = await compactWithPlan({ messages: history, session, keep: 6, summarise }, langChainMessageShape);
 * ```
 * @public
 */
export const langChainMessageShape: LangChainMessageShape = Object.freeze({
  name: 'compactWithPlan (LangChain messages)',
  isPinned: (message: BaseMessage) => SystemMessage.isInstance(message),
  continuesTurn: (message: BaseMessage) => ToolMessage.isInstance(message),
  textOf,
  planTextOf: (message: BaseMessage) =>
    HumanMessage.isInstance(message) && typeof message.content === 'string'
      ? message.content
      : undefined,
  build: (summary: string, plan: string | undefined): BaseMessage[] => [
    new HumanMessage(summary),
    ...(plan === undefined ? [] : [new HumanMessage(plan)]),
  ],
});
