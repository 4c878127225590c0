import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredTool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { toLangChainTools } from './to-langchain-tools.ts';

/** A chat model that replays scripted AI messages turn by turn and records the tools bound to it. */
class ScriptedChatModel extends BaseChatModel {
  readonly script: AIMessage[];
  boundTools: unknown[] = [];

  constructor(script: AIMessage[]) {
    super({});
    this.script = script;
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: StructuredTool[]): this {
    this.boundTools = tools.map((tool) => convertToOpenAITool(tool));
    return this;
  }

  async _generate(): Promise<ChatResult> {
    const message = this.script.shift() ?? new AIMessage('(script ended)');
    return {
      generations: [{ text: typeof message.content === 'string' ? message.content : '', message }],
    };
  }
}

describe('toLangChainTools with a fake chat model emitting tool calls', () => {
  it('binds our schemas and answers tool calls with ToolMessages, status error on refusal', async () => {
    const session = new Session({ sessionId: 'langchain', clock: () => 1 });
    const planningTools = createPlanningTools(session);
    const tools = toLangChainTools(planningTools, { session });
    const model = new ScriptedChatModel([
      new AIMessage({
        content: '',
        tool_calls: [
          {
            id: 'lc_1',
            name: 'planning_setup_plan',
            args: { objective: 'Ship v2', initial_steps: [{ title: 'Draft' }] },
            type: 'tool_call',
          },
          {
            id: 'lc_2',
            name: 'planning_add_step',
            args: { steps: [{ title: 42 }] },
            type: 'tool_call',
          },
        ],
      }),
      new AIMessage({ content: 'Planned.' }),
    ]);
    const chat = model.bindTools(tools);
    const messages: BaseMessage[] = [new HumanMessage('Plan v2.')];
    for (let turn = 0; turn < 4; turn++) {
      const ai = await chat.invoke(messages);
      messages.push(ai);
      if (!ai.tool_calls?.length) break;
      for (const call of ai.tool_calls) {
        const tool = tools.find((candidate) => candidate.name === call.name);
        if (tool === undefined) throw new Error(`no tool ${call.name}`);
        messages.push((await tool.invoke(call)) as ToolMessage);
      }
    }
    const replies = messages.filter(
      (message): message is ToolMessage => message instanceof ToolMessage,
    );
    expect(replies.map((m) => [m.tool_call_id, m.status, m.content])).toEqual([
      ['lc_1', 'success', 'Plan initialised with 1 step.'],
      [
        'lc_2',
        'error',
        'Tool validation failed: steps[0].title: Invalid input: expected string, received number',
      ],
    ]);
    expect(messages.at(-1)?.content).toBe('Planned.');
    expect(selectLatest(session, Plan)?.steps).toHaveLength(1);
    // LangChain adds its own JSON Schema dialect marker; everything else is plankit's schema.
    const bound = (model.boundTools as { function: { parameters: Record<string, unknown> } }[]).map(
      (tool) => {
        const { $schema: _dialect, ...parameters } = tool.function.parameters;
        return { ...tool, function: { ...tool.function, parameters } };
      },
    );
    expect(bound).toEqual(
      planningTools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          description: tool.description,
          parameters: toolJsonSchema(tool),
        },
      })),
    );
  });

  it('returns the text when invoked with plain arguments', async () => {
    const session = new Session();
    const [setup] = toLangChainTools(createPlanningTools(session), { session });
    expect(await setup?.invoke({ objective: '  ' })).toBe(
      'Tool validation failed: Objective must not be empty.',
    );
  });
});
