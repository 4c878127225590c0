import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/** A tool call as a scripted model emits it. */
export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly type: 'tool_call';
}

/** A tool call as a scripted model emits it. */
export function toolCall(
  id: string,
  name: string,
  args: Record<string, unknown>,
): ScriptedToolCall {
  return { id, name, args, type: 'tool_call' };
}

/** One scripted model turn: an AIMessage with no text and these tool calls. */
export function toolCallTurn(...calls: ScriptedToolCall[]): AIMessage {
  return new AIMessage({ content: '', tool_calls: calls.map((call) => ({ ...call })) });
}

/**
 * A LangChain chat model that answers with the next message of its script (`fallback` once it
 * runs out), and records what each request held and which tools were bound: the model the
 * LangGraph and LangChain tests drive `createAgent` with.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly script: AIMessage[];
  /** The messages of each request, in order. */
  readonly requests: BaseMessage[][] = [];
  /** The names of the tools of each `bindTools` call, in order. */
  readonly offered: string[][] = [];
  readonly #fallback: string;

  constructor(script: AIMessage[], fallback = '(script ended)') {
    super({});
    this.script = script;
    this.#fallback = fallback;
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: { name: string }[]): this {
    this.offered.push(tools.map((tool) => tool.name));
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.requests.push(messages);
    const message = this.script.shift() ?? new AIMessage(this.#fallback);
    return { generations: [{ text: '', message }] };
  }
}
