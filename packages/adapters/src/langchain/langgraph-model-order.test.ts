import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type ToolCall,
  ToolMessage,
} from '@langchain/core/messages';
import { tool as langChainTool } from '@langchain/core/tools';
import { MemorySaver, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createPlanningTools, defineTool, Plan, Session, selectLatest } from '@plankit/core';
import * as fc from 'fast-check';
import {
  createAgent,
  createMiddleware,
  FakeToolCallingModel,
  toolRetryMiddleware,
} from 'langchain';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { HoldToolStart, sleep } from '../testing/hold-tool-start.ts';
import { toLangChainTools } from './to-langchain-tools.ts';

/** A tool call with its id, as chat models emit them (and as FakeToolCallingModel requires). */
type IdentifiedCall = ToolCall & { id: string };

/** A plankit tool that records the order in which its calls apply. */
function recorder(applied: string[]) {
  return defineTool({
    name: 'record',
    description: 'Records a label.',
    parameters: z.strictObject({ label: z.string() }),
    handler: ({ label }) => {
      applied.push(label);
      return { message: `Recorded ${label}.`, value: null };
    },
  });
}

const setupThenMark: IdentifiedCall[] = [
  {
    id: 'call_setup',
    name: 'planning_setup_plan',
    args: { objective: 'Ship', initial_steps: [{ title: 'Build' }] },
    type: 'tool_call',
  },
  {
    id: 'call_mark',
    name: 'planning_mark_step',
    args: { step_id: 'S001', status: 'done' },
    type: 'tool_call',
  },
];

function toolMessages(messages: readonly BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

function byCallId(messages: readonly BaseMessage[]): Record<string, [string, string]> {
  return Object.fromEntries(
    toolMessages(messages).map((m) => [m.tool_call_id, [String(m.status), String(m.content)]]),
  );
}

describe('model order in LangGraph ToolNode (@langchain/langgraph/prebuilt)', () => {
  it('applies setup before mark when an awaited handleToolStart holds the first call', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const hold = new HoldToolStart(new Map([['call_setup', 40]]));
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('tools', new ToolNode(tools))
      .addEdge('__start__', 'tools')
      .compile();
    const result = await graph.invoke(
      { messages: [new AIMessage({ content: '', tool_calls: setupThenMark })] },
      { callbacks: [hold] },
    );
    // The hook really held the setup: the mark's hook started while the setup's still slept.
    expect(hold.started).toEqual(['call_setup', 'call_mark']);
    expect(byCallId(result.messages)).toEqual({
      call_setup: ['success', 'Plan initialised with 1 step.'],
      call_mark: ['success', 'Step S001 marked as done.'],
    });
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  it('applies 20 calls of one AIMessage in emission order, whatever order they complete in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 6 }), { minLength: 20, maxLength: 20 }),
        async (delays) => {
          const session = new Session();
          const applied: string[] = [];
          const tools = toLangChainTools([recorder(applied)], { session });
          const calls: IdentifiedCall[] = delays.map((_, index) => ({
            id: `call_${index}`,
            name: 'record',
            args: { label: `call_${index}` },
            type: 'tool_call',
          }));
          const hold = new HoldToolStart(
            new Map(delays.map((delay, index) => [`call_${index}`, delay])),
          );
          const graph = new StateGraph(MessagesAnnotation)
            .addNode('tools', new ToolNode(tools))
            .addEdge('__start__', 'tools')
            .compile();
          const result = await graph.invoke(
            { messages: [new AIMessage({ content: '', tool_calls: calls })] },
            { callbacks: [hold] },
          );
          expect(applied).toEqual(calls.map((call) => call.id));
          expect(toolMessages(result.messages).map((m) => m.tool_call_id)).toEqual(
            calls.map((call) => call.id),
          );
        },
      ),
      { numRuns: 10 },
    );
  });

  it('applies each planning call once when a retryPolicy re-runs the tools node', async () => {
    const session = new Session();
    const applied: string[] = [];
    const planning = toLangChainTools([...createPlanningTools(session), recorder(applied)], {
      session,
    });
    let attempts = 0;
    // A host tool that fails the first attempt; with handleToolErrors off the node fails and
    // LangGraph retries it, re-running every call of the message.
    const flaky = langChainTool(
      async () => {
        attempts++;
        if (attempts === 1) throw new Error('upstream timeout');
        return 'fetched';
      },
      { name: 'fetch_docs', description: 'Fetches docs.', schema: z.object({}) },
    );
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('tools', new ToolNode([...planning, flaky], { handleToolErrors: false }), {
        retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, retryOn: () => true },
      })
      .addEdge('__start__', 'tools')
      .compile();
    const result = await graph.invoke({
      messages: [
        new AIMessage({
          content: '',
          tool_calls: [
            setupThenMark[0] as IdentifiedCall,
            {
              id: 'call_add',
              name: 'planning_add_step',
              args: { steps: [{ title: 'Test' }] },
              type: 'tool_call',
            },
            { id: 'call_record', name: 'record', args: { label: 'once' }, type: 'tool_call' },
            { id: 'call_fetch', name: 'fetch_docs', args: {}, type: 'tool_call' },
          ],
        }),
      ],
    });
    expect(attempts).toBe(2);
    expect(byCallId(result.messages)).toEqual({
      call_setup: ['success', 'Plan initialised with 1 step.'],
      call_add: ['success', 'Queued 1 step for addition.'],
      call_record: ['success', 'Recorded once.'],
      call_fetch: ['success', 'fetched'],
    });
    expect(applied).toEqual(['once']);
    // Without model order the retry would add the step twice (and refuse the second setup).
    expect(selectLatest(session, Plan)?.steps.map((step) => step.title)).toEqual(['Build', 'Test']);
  });

  it('applies each planning call once when a run resumes from a MemorySaver checkpoint', async () => {
    const session = new Session();
    const applied: string[] = [];
    const tools = toLangChainTools([recorder(applied)], { session });
    let attempts = 0;
    const flaky = langChainTool(
      async () => {
        if (++attempts === 1) throw new Error('upstream timeout');
        return 'fetched';
      },
      { name: 'fetch_docs', description: 'Fetches docs.', schema: z.object({}) },
    );
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('tools', new ToolNode([...tools, flaky], { handleToolErrors: false }))
      .addEdge('__start__', 'tools')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'thread-1' } };
    const input = {
      messages: [
        new AIMessage({
          content: '',
          tool_calls: [
            { id: 'call_record', name: 'record', args: { label: 'once' }, type: 'tool_call' },
            { id: 'call_fetch', name: 'fetch_docs', args: {}, type: 'tool_call' },
          ],
        }),
      ],
    };
    await expect(graph.invoke(input, config)).rejects.toThrow('upstream timeout');
    // Resuming reads the messages back from the checkpoint: new objects, the same message id.
    const result = await graph.invoke(null, config);
    expect(applied).toEqual(['once']);
    expect(byCallId(result.messages)).toEqual({
      call_record: ['success', 'Recorded once.'],
      call_fetch: ['success', 'fetched'],
    });
  });

  it('does not wait for calls the state already answers (a resumed ToolNode skips them)', async () => {
    const session = new Session();
    const applied: string[] = [];
    const tools = toLangChainTools([recorder(applied)], { session, orderTimeoutMs: 60_000 });
    const ai = new AIMessage({
      content: '',
      tool_calls: ['a', 'b'].map((id) => ({
        id,
        name: 'record',
        args: { label: id },
        type: 'tool_call' as const,
      })),
    });
    const answered = new ToolMessage({ content: 'Recorded a.', tool_call_id: 'a' });
    const started = Date.now();
    const result = await new ToolNode(tools).invoke({ messages: [ai, answered] });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(applied).toEqual(['b']);
    expect(result.messages.map((m: ToolMessage) => m.tool_call_id)).toEqual(['b']);
  });

  it('keeps different AIMessages (turns) independent on one session', async () => {
    const session = new Session();
    const applied: string[] = [];
    const tools = toLangChainTools([recorder(applied)], { session });
    const turn = (prefix: string, id: string) =>
      new AIMessage({
        id,
        content: '',
        tool_calls: [0, 1].map((n) => ({
          id: `call_${n}`,
          name: 'record',
          args: { label: `${prefix}${n}` },
          type: 'tool_call' as const,
        })),
      });
    // The same tool-call ids in two messages are two turns: the second is not a retry.
    await new ToolNode(tools).invoke({ messages: [turn('x', 'msg_1')] });
    await new ToolNode(tools).invoke({ messages: [turn('y', 'msg_2')] });
    expect(applied).toEqual(['x0', 'x1', 'y0', 'y1']);
  });
});

describe('model order in createAgent (langchain)', () => {
  it('applies setup before mark when an awaited handleToolStart holds the first call', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const hold = new HoldToolStart(new Map([['call_setup', 40]]));
    const agent = createAgent({
      model: new FakeToolCallingModel({ toolCalls: [setupThenMark] }),
      tools,
    });
    const result = await agent.invoke(
      { messages: [new HumanMessage('Plan and finish.')] },
      { callbacks: [hold] },
    );
    expect(byCallId(result.messages)).toEqual({
      call_setup: ['success', 'Plan initialised with 1 step.'],
      call_mark: ['success', 'Step S001 marked as done.'],
    });
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  it('applies setup before mark when a wrapToolCall middleware holds the first call', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    const holdSetup = createMiddleware({
      name: 'HoldSetup',
      wrapToolCall: async (request, handler) => {
        if (request.toolCall.id === 'call_setup') await sleep(40);
        return handler(request);
      },
    });
    const agent = createAgent({
      model: new FakeToolCallingModel({ toolCalls: [setupThenMark] }),
      tools,
      middleware: [holdSetup],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Plan and finish.')] });
    expect(byCallId(result.messages)['call_mark']).toEqual([
      'success',
      'Step S001 marked as done.',
    ]);
  });

  it('applies 20 calls of one AIMessage in emission order, whatever order they complete in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 6 }), { minLength: 20, maxLength: 20 }),
        async (delays) => {
          const session = new Session();
          const applied: string[] = [];
          const tools = toLangChainTools([recorder(applied)], { session });
          const calls: IdentifiedCall[] = delays.map((_, index) => ({
            id: `call_${index}`,
            name: 'record',
            args: { label: `call_${index}` },
            type: 'tool_call',
          }));
          const hold = new HoldToolStart(
            new Map(delays.map((delay, index) => [`call_${index}`, delay])),
          );
          const agent = createAgent({
            model: new FakeToolCallingModel({ toolCalls: [calls] }),
            tools,
          });
          await agent.invoke({ messages: [new HumanMessage('Record.')] }, { callbacks: [hold] });
          expect(applied).toEqual(calls.map((call) => call.id));
        },
      ),
      { numRuns: 5 },
    );
  });

  it('applies a planning call once when toolRetryMiddleware retries it', async () => {
    const session = new Session();
    const tools = toLangChainTools(createPlanningTools(session), { session });
    let failures = 0;
    // Fails after the tool has run, so the retry re-invokes a call that already applied.
    const failOnce = createMiddleware({
      name: 'FailOnceAfterRun',
      wrapToolCall: async (request, handler) => {
        const answer = await handler(request);
        if (request.toolCall.id === 'call_add' && failures++ === 0)
          throw new Error('connection reset');
        return answer;
      },
    });
    // Its zod v3 state schema does not type-check under exactOptionalPropertyTypes; at run time it
    // is a middleware like any other.
    const retry = toolRetryMiddleware({
      maxRetries: 1,
      initialDelayMs: 1,
      jitter: false,
    }) as unknown as typeof failOnce;
    const agent = createAgent({
      model: new FakeToolCallingModel({
        toolCalls: [
          [
            setupThenMark[0] as IdentifiedCall,
            {
              id: 'call_add',
              name: 'planning_add_step',
              args: { steps: [{ title: 'Test' }] },
              type: 'tool_call',
            },
          ],
        ],
      }),
      tools,
      middleware: [retry, failOnce],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Plan.')] });
    expect(failures).toBe(2);
    expect(byCallId(result.messages)['call_add']).toEqual([
      'success',
      'Queued 1 step for addition.',
    ]);
    expect(selectLatest(session, Plan)?.steps.map((step) => step.title)).toEqual(['Build', 'Test']);
  });

  it('moves on after orderTimeoutMs when a middleware answers an earlier call itself', async () => {
    const session = new Session();
    const applied: string[] = [];
    const tools = toLangChainTools([recorder(applied)], { session, orderTimeoutMs: 30 });
    const skipFirst = createMiddleware({
      name: 'SkipFirst',
      wrapToolCall: async (request, handler) =>
        request.toolCall.id === 'a'
          ? new ToolMessage({ content: 'skipped', tool_call_id: 'a' })
          : handler(request),
    });
    const agent = createAgent({
      model: new FakeToolCallingModel({
        toolCalls: [
          ['a', 'b'].map((id) => ({
            id,
            name: 'record',
            args: { label: id },
            type: 'tool_call' as const,
          })),
        ],
      }),
      tools,
      middleware: [skipFirst],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Record.')] });
    expect(applied).toEqual(['b']);
    expect(byCallId(result.messages)).toEqual({
      a: ['undefined', 'skipped'],
      b: ['success', 'Recorded b.'],
    });
  });
});

describe('model order outside a graph', () => {
  it('falls back to arrival order for tools invoked directly with tool calls', async () => {
    const session = new Session();
    const applied: string[] = [];
    const [record] = toLangChainTools([recorder(applied)], { session });
    if (record === undefined) throw new Error('no tool');
    // No graph state, so no ordering signal: the call that arrives first applies first.
    await Promise.all([
      sleep(20).then(() =>
        record.invoke({ id: 'first', name: 'record', args: { label: 'first' }, type: 'tool_call' }),
      ),
      record.invoke({ id: 'second', name: 'record', args: { label: 'second' }, type: 'tool_call' }),
    ]);
    expect(applied).toEqual(['second', 'first']);
  });
});
