import { AIMessage, HumanMessage, type ToolCall, ToolMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import {
  AsyncLocalStorageProviderSingleton,
  MockAsyncLocalStorage,
} from '@langchain/core/singletons';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import * as fc from 'fast-check';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { describe, expect, it, vi } from 'vitest';
import { HoldToolStart, sleep } from '../testing/hold-tool-start.ts';
import { toLangChainTools } from './to-langchain-tools.ts';

const setupThenMark = [
  {
    id: 'call_setup',
    name: 'planning_setup_plan',
    args: { objective: 'Ship', initial_steps: [{ title: 'Build' }] },
    type: 'tool_call' as const,
  },
  {
    id: 'call_mark',
    name: 'planning_mark_step',
    args: { step_id: 'S001', status: 'done' },
    type: 'tool_call' as const,
  },
];

function answers(messages: readonly unknown[]): [string, string, string][] {
  return messages
    .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
    .map((m) => [m.tool_call_id, String(m.status), String(m.content)]);
}

/** A message whose tool call carries `args` as the model sent them, valid or not. */
function callWith(name: string, args: unknown, id = 'call_1'): AIMessage {
  return new AIMessage({
    content: '',
    tool_calls: [{ id, name, args: args as Record<string, unknown>, type: 'tool_call' }],
  });
}

describe('refusals in LangChain form', () => {
  it('answers a refusal with a ToolMessage, status error, plankit text and the call id', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const result = await new ToolNode(tools).invoke({
      messages: [callWith('planning_mark_step', { step_id: 'S001', status: 'done' }, 'call_9')],
    });
    expect(answers(result.messages)).toEqual([
      ['call_9', 'error', 'Tool validation failed: No plan is currently initialised.'],
    ]);
    expect((result.messages[0] as ToolMessage).name).toBe('planning_mark_step');
  });

  it.each([
    ['a string', 'not json', 'Tool validation failed: Arguments must be a JSON object'],
    ['null', null, 'Tool validation failed: Arguments must be a JSON object'],
    ['an array', [1, 2], 'Tool validation failed: Arguments must be a JSON object, got an array.'],
    ['a number', 7, 'Tool validation failed: Arguments must be a JSON object'],
    [
      'a __proto__ key',
      JSON.parse('{"__proto__":{"polluted":1},"objective":"o"}'),
      'Tool validation failed:',
    ],
  ])(
    'refuses args that are %s in plankit words, never with an exception',
    async (_label, args, text) => {
      const session = new Session();
      const before = session.snapshot();
      const tools = toLangChainTools(createPlanningTools(session), { session });
      const result = await new ToolNode(tools, { handleToolErrors: false }).invoke({
        messages: [callWith('planning_setup_plan', args)],
      });
      const [[id, status, content] = []] = answers(result.messages);
      expect([id, status]).toEqual(['call_1', 'error']);
      expect(content?.startsWith(text)).toBe(true);
      expect(session.snapshot()).toBe(before);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    },
  );

  it('leaves the session unchanged on every refusal and answers every call, for any args (property)', async () => {
    const names = createPlanningTools(new Session()).map((tool) => tool.name);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.jsonValue(), async (name, args) => {
        const session = new Session();
        const before = session.snapshot();
        const tools = toLangChainTools(createPlanningTools(session), { session });
        const result = await new ToolNode(tools, { handleToolErrors: false }).invoke({
          messages: [callWith(name, args)],
        });
        const [[id, status, content] = []] = answers(result.messages);
        expect(id).toBe('call_1');
        expect((content ?? '').length).toBeLessThan(2_000);
        if (status === 'error') {
          expect(content).toMatch(/^Tool validation failed: /);
          expect(session.snapshot()).toBe(before);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('cases ported from langchainjs and langgraphjs', () => {
  it('langgraphjs prebuilt.test.ts "ToolNode > Should support graceful error handling": an unknown name is answered by the ToolNode', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const result = await new ToolNode(tools).invoke([callWith('badtool', {}, 'testid')]);
    expect(answers(result)).toEqual([
      ['testid', 'error', 'Error: Tool "badtool" not found.\n Please fix your mistakes.'],
    ]);
  });

  it('langchainjs ToolNode.test.ts "should handle missing tool name with default error handler": createAgent answers an unknown name itself', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const agent = createAgent({
      model: new FakeToolCallingModel({
        toolCalls: [[{ id: 'call_123', name: 'nonexistent_tool', args: { foo: 'bar' } }]],
      }),
      tools,
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Go.')] });
    const [[id, status, content] = []] = answers(result.messages);
    expect([id, status]).toEqual(['call_123', 'error']);
    expect(content).toContain('nonexistent_tool is not a valid tool');
    expect(content).toContain('planning_setup_plan');
  });

  it('langchainjs ToolNode.test.ts "should use send error tool message if model creates wrong args": the model reads plankit\'s refusal, not a schema exception', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const agent = createAgent({
      model: new FakeToolCallingModel({
        toolCalls: [[{ id: '1', name: 'planning_setup_plan', args: { objective: 123 } }]],
      }),
      tools,
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Plan.')] });
    const [[id, status, content] = []] = answers(result.messages);
    expect([id, status]).toEqual(['1', 'error']);
    expect(content).toMatch(/^Tool validation failed: objective: /);
    expect(content).not.toContain('did not match expected schema');
  });

  it('langchainjs ToolNode.test.ts "should throw if handleToolErrors is false": plankit refusals are answers, so nothing throws', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const result = await new ToolNode(tools, { handleToolErrors: false }).invoke({
      messages: [callWith('planning_mark_step', { step_id: 'S404', status: 'done' }, 'testid')],
    });
    expect(answers(result.messages)).toEqual([
      ['testid', 'error', 'Tool validation failed: No plan is currently initialised.'],
    ]);
  });

  it('langgraphjs prebuilt.test.ts "ToolNode > forwards input to tools via runtime.state on direct .invoke()": model order outside a graph', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const result = await new ToolNode(tools).invoke(
      { messages: [new AIMessage({ content: '', tool_calls: setupThenMark })] },
      { callbacks: [new HoldToolStart(new Map([['call_setup', 30]]))] },
    );
    expect(answers(result.messages).map(([, status]) => status)).toEqual(['success', 'success']);
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  it('langgraphjs prebuilt.test.ts "ToolNode > runtime.state works without AsyncLocalStorage (browser-like)": model order without async_hooks', async () => {
    const spy = vi
      .spyOn(AsyncLocalStorageProviderSingleton, 'getInstance')
      .mockReturnValue(new MockAsyncLocalStorage());
    try {
      expect(AsyncLocalStorageProviderSingleton.getRunnableConfig()).toBeUndefined();
      const session = new Session();
      const tools = toLangChainTools(createPlanningTools(session), { session });
      const graph = new StateGraph(MessagesAnnotation)
        .addNode('tools', new ToolNode(tools))
        .addEdge('__start__', 'tools')
        .compile();
      const result = await graph.invoke(
        { messages: [new AIMessage({ content: '', tool_calls: setupThenMark })] },
        { callbacks: [new HoldToolStart(new Map([['call_setup', 30]]))] },
      );
      expect(answers(result.messages).map(([, status]) => status)).toEqual(['success', 'success']);
    } finally {
      spy.mockRestore();
    }
  });

  it('langgraphjs prebuilt.test.ts "ToolNode > still exposes state via getCurrentTaskInput(config)": model order in a custom node that passes its config', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('tools', async (state, config) => {
        const ai = state.messages.at(-1) as AIMessage;
        // A hand-written tools node: concurrent, and the first call starts late.
        const replies = await Promise.all(
          (ai.tool_calls ?? []).map(async (call, index) => {
            if (index === 0) await sleep(30);
            const tool = tools.find((candidate) => candidate.name === call.name);
            return (await tool?.invoke({ ...call, type: 'tool_call' }, config)) as ToolMessage;
          }),
        );
        return { messages: replies };
      })
      .addEdge('__start__', 'tools')
      .compile();
    const result = await graph.invoke({
      messages: [new AIMessage({ content: '', tool_calls: setupThenMark })],
    });
    expect(answers(result.messages).map(([, status]) => status)).toEqual(['success', 'success']);
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  it('langgraphjs prebuilt.test.ts "ToolNode > Should work when nested with a callback manager passed"', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const toolNode = new ToolNode(tools);
    const wrapper = RunnableLambda.from(async (_: unknown) =>
      toolNode.invoke([new AIMessage({ content: '', tool_calls: setupThenMark })]),
    );
    const result = (await wrapper.invoke(
      {},
      { callbacks: [new HoldToolStart(new Map([['call_setup', 30]]))] },
    )) as ToolMessage[];
    expect(answers(result).map(([id, status]) => [id, status])).toEqual([
      ['call_setup', 'success'],
      ['call_mark', 'success'],
    ]);
  });

  it('langchainjs tools.test.ts "Does not return tool message if ... a tool call with no id is passed in": the text comes back', async () => {
    const session = new Session();
    const [setup] = toLangChainTools(createPlanningTools(session), { session });
    const call: ToolCall = {
      name: 'planning_setup_plan',
      args: { objective: 'Ship', initial_steps: [{ title: 'Build' }] },
      type: 'tool_call',
    };
    expect(await setup?.invoke(call)).toBe('Plan initialised with 1 step.');
  });

  it('langchainjs tools.test.ts "handleToolStart receives toolCallId when invoked with ToolCall": the id the order hooks key on', async () => {
    const session = new Session();
    const [setup] = toLangChainTools(createPlanningTools(session), { session });
    const seen: (string | undefined)[] = [];
    await setup?.invoke({ ...setupThenMark[0], type: 'tool_call' } as ToolCall, {
      callbacks: [
        {
          handleToolStart: (...args: unknown[]) => {
            seen.push(args[7] as string | undefined);
          },
        },
      ],
    });
    expect(seen).toEqual(['call_setup']);
  });
});
