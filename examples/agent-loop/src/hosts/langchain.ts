import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  type ToolMessage,
} from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { toLangChainTools } from '@plankit/adapters/langchain';
import type { CallReport, DriverContext, ModelDriver, TurnReport } from '../planning-job.ts';
import { ScriptedModel } from '../scripted-model.ts';

// LangChain's generic message fields do not accept usage_metadata under exactOptionalPropertyTypes.
type AIMessageInput = ConstructorParameters<typeof AIMessage>[0];

/** A LangChain chat model replaying the script, with token usage on each message. */
class ScriptedChatModel extends BaseChatModel {
  readonly script: ScriptedModel;
  #call = 0;

  constructor(script: ScriptedModel) {
    super({});
    this.script = script;
  }

  _llmType(): string {
    return 'scripted';
  }

  async _generate(): Promise<ChatResult> {
    const reply = this.script.reply();
    const usage_metadata = {
      input_tokens: reply.usage.inputTokens,
      output_tokens: reply.usage.outputTokens,
      total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
    };
    const message =
      'text' in reply
        ? new AIMessage({ content: reply.text, usage_metadata } as AIMessageInput)
        : new AIMessage({
            content: '',
            usage_metadata,
            tool_calls: reply.calls.map((call) => ({
              id: `lc_${++this.#call}`,
              name: call.name,
              args: { ...call.args },
              type: 'tool_call' as const,
            })),
          } as AIMessageInput);
    return {
      generations: [{ text: typeof message.content === 'string' ? message.content : '', message }],
    };
  }
}

/** A LangChain.js loop: the chat model proposes tool calls, plankit's structured tools answer ToolMessages. */
export function createLangChainDriver(context: DriverContext): ModelDriver {
  const script = new ScriptedModel();
  const model = new ScriptedChatModel(script);
  const tools = toLangChainTools(context.tools, { session: context.session });
  const messages: BaseMessage[] = [new SystemMessage(context.system)];

  return {
    host: 'langchain',
    model: 'scripted',
    live: false,
    async turn(instruction): Promise<TurnReport> {
      script.begin(instruction);
      messages.push(new HumanMessage(instruction));
      const calls: CallReport[] = [];
      const usage: { inputTokens: number; outputTokens: number }[] = [];
      for (let step = 0; step < 8; step++) {
        const ai = (await model.invoke(messages)) as AIMessage;
        context.tick();
        messages.push(ai);
        const tokens = ai.usage_metadata as
          | { input_tokens?: number; output_tokens?: number }
          | undefined;
        usage.push({
          inputTokens: tokens?.input_tokens ?? 0,
          outputTokens: tokens?.output_tokens ?? 0,
        });
        if (!ai.tool_calls?.length)
          return { calls, text: typeof ai.content === 'string' ? ai.content : '', usage };
        // One call at a time, in the message's order. A LangGraph ToolNode (or createAgent) may
        // run them concurrently instead: plankit's tools read the AIMessage from the graph state
        // and still apply them in this order.
        for (const toolCall of ai.tool_calls) {
          const tool = tools.find((candidate) => candidate.name === toolCall.name);
          if (tool === undefined)
            throw new Error(`The script called an unknown tool ${toolCall.name}`);
          const answer = (await tool.invoke({ ...toolCall, type: 'tool_call' })) as ToolMessage;
          messages.push(answer);
          calls.push({
            tool: toolCall.name,
            success: answer.status !== 'error',
            message: String(answer.content),
          });
        }
      }
      return { calls, text: '', usage };
    },
    async close() {
      if (script.remaining() > 0)
        throw new Error(
          `The script still has ${script.remaining()} replies: the loop ended early.`,
        );
    },
  };
}
