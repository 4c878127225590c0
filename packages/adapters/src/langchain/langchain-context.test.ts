import type { AIMessage, BaseMessage, ToolCall } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  entrypoint,
  MemorySaver,
  MessagesAnnotation,
  StateGraph,
  type StateSnapshot,
  task,
} from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { type LangChainContext, langChainContext } from './langchain-context.ts';
import { lastToolMessage, markCall, setupCall } from './testing/graph-calls.ts';
import { toLangChainTools } from './to-langchain-tools.ts';

/** Planning tools whose resolver records each call's context and keys sessions on `key`. */
function recordingTools(key: (context: LangChainContext) => string) {
  const seen: LangChainContext[] = [];
  const sessions = new Map<string, Session>();
  const tools = toLangChainTools(createPlanningTools(new Session()), {
    session: (context) => {
      seen.push(context);
      const name = key(context);
      let session = sessions.get(name);
      if (session === undefined) {
        session = new Session();
        sessions.set(name, session);
      }
      return session;
    },
  });
  return { tools, seen, sessions };
}

function toolGraph(tools: ReturnType<typeof toLangChainTools>) {
  return new StateGraph(MessagesAnnotation)
    .addNode('tools', new ToolNode(tools))
    .addEdge('__start__', 'tools');
}

async function historyOf(
  graph: { getStateHistory(config: RunnableConfig): AsyncIterableIterator<StateSnapshot> },
  config: RunnableConfig,
): Promise<StateSnapshot[]> {
  const states: StateSnapshot[] = [];
  for await (const state of graph.getStateHistory(config)) states.push(state);
  return states;
}

const idOf = (state: StateSnapshot | undefined) => state?.config.configurable?.['checkpoint_id'];

describe('langChainContext outside a graph', () => {
  it('reads thread_id, checkpoint_ns and checkpoint_id as the caller gave them', () => {
    const config = {
      configurable: { thread_id: 't1', checkpoint_ns: 'agent', checkpoint_id: 'c1' },
    };
    expect(langChainContext(config)).toEqual({
      threadId: 't1',
      checkpointNs: 'agent',
      checkpointId: 'c1',
      config,
    });
  });

  it('counts empty strings, non-strings and a missing config as missing', () => {
    const config = { configurable: { thread_id: '', checkpoint_ns: 7, checkpoint_id: '' } };
    expect(langChainContext(config)).toMatchObject({
      threadId: undefined,
      checkpointNs: undefined,
      checkpointId: undefined,
    });
    expect(langChainContext(undefined)).toEqual({
      threadId: undefined,
      checkpointNs: undefined,
      checkpointId: undefined,
      config: undefined,
    });
    expect(langChainContext({ configurable: null }).threadId).toBeUndefined();
  });

  it('reads a checkpoint map only when it holds the entry of the namespace the task runs in', () => {
    // No entry for the parent namespace '': not a LangGraph task's config, read as given.
    expect(
      langChainContext({
        configurable: { checkpoint_ns: 'tools:t1', checkpoint_map: { other: 'x' } },
      }),
    ).toMatchObject({ checkpointNs: 'tools:t1', checkpointId: undefined });
    expect(
      langChainContext({
        configurable: { checkpoint_ns: 'tools:t1', checkpoint_map: { '': 42 }, checkpoint_id: 'c' },
      }),
    ).toMatchObject({ checkpointNs: 'tools:t1', checkpointId: 'c' });
    // A task's config, as LangGraph builds it (pregel/algo.ts): a subgraph's second subgraph.
    expect(
      langChainContext({
        configurable: {
          checkpoint_ns: 'research:a1|1|review:b2|tools:c3',
          checkpoint_map: { '': 'root', 'research:a1|1': 'mid', 'research:a1|1|review:b2': 'leaf' },
        },
      }),
    ).toMatchObject({ checkpointNs: 'research|review', checkpointId: 'leaf' });
    // A functional-API task: filed under its entrypoint node, on the entrypoint graph's checkpoint.
    expect(
      langChainContext({
        configurable: {
          checkpoint_ns: 'wf:a1|step:b2',
          checkpoint_map: { '': 'top', 'wf:a1': 'top' },
        },
      }),
    ).toMatchObject({ checkpointNs: undefined, checkpointId: 'top' });
  });
});

describe('langChainContext in a compiled graph (StateGraph, ToolNode, MemorySaver)', () => {
  it('gives undefined checkpointNs at the top level on every call, and the step checkpoint id', async () => {
    const { tools, seen, sessions } = recordingTools(
      (context) => `${context.threadId}|${context.checkpointNs ?? ''}`,
    );
    const graph = toolGraph(tools).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'top' } };
    await graph.invoke({ messages: [setupCall('s1', 'Ship', ['Build', 'Test'])] }, config);
    const result = await graph.invoke({ messages: [markCall('m1', 'S001')] }, config);
    expect(lastToolMessage(result.messages)?.content).toBe('Step S001 marked as done.');
    expect(seen.map((context) => context.checkpointNs)).toEqual([undefined, undefined]);
    // A resolver keyed on the namespace keeps one plan for the thread (not one per call).
    expect([...sessions.keys()]).toEqual(['top|']);
    // Each call names the checkpoint its step ran on: the ones waiting for `tools`.
    const waiting = (await historyOf(graph, config))
      .filter((state) => state.next.includes('tools'))
      .reverse();
    expect(seen.map((context) => context.checkpointId)).toEqual(waiting.map(idOf));
    // Passed back, the id reads the state the call ran on.
    const checkpointId = seen[1]?.checkpointId;
    const state = await graph.getState({
      configurable: { thread_id: 'top', checkpoint_id: checkpointId },
    });
    expect((state.values.messages as BaseMessage[]).at(-1)?.id).toBe(
      (result.messages as BaseMessage[]).at(-2)?.id,
    );
  });

  it('gives a fork from an earlier checkpoint the fork checkpoint, whose parent is the one the run named', async () => {
    const { tools, seen, sessions } = recordingTools(
      (context) => `${context.threadId}@${context.checkpointId}`,
    );
    const graph = toolGraph(tools).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'forked' } };
    await graph.invoke({ messages: [setupCall('s1', 'Ship', ['Build'])] }, config);
    const earlier = (await historyOf(graph, config)).find((state) => state.next.includes('tools'));
    const named = idOf(earlier);
    expect(typeof named).toBe('string');
    expect(seen[0]?.checkpointId).toBe(named);

    // Re-run the tools step from that checkpoint: LangGraph forks the thread there.
    const forked = await graph.invoke(null, {
      configurable: { thread_id: 'forked', checkpoint_id: named },
    });
    expect(lastToolMessage(forked.messages)?.content).toMatch(/^Plan initialised/);
    const fork = (await historyOf(graph, config)).find(
      (state) => state.metadata?.source === 'fork',
    );
    expect(fork?.parentConfig?.configurable?.['checkpoint_id']).toBe(named);
    expect(seen.map((context) => context.checkpointId)).toEqual([named, idOf(fork)]);
    expect(seen[1]?.checkpointNs).toBeUndefined();
    // A resolver keyed on the checkpoint gave the fork a plan of its own.
    expect(sessions.size).toBe(2);
  });

  it('gives a functional-API task (entrypoint, task) the top level: undefined checkpointNs', async () => {
    const { tools, seen, sessions } = recordingTools(
      (context) => `${context.threadId}|${context.checkpointNs ?? ''}`,
    );
    const [setup] = tools;
    if (setup === undefined) throw new Error('no setup tool');
    const checkpointer = new MemorySaver();
    const callTool = task('callTool', (call: ToolCall) => setup.invoke(call));
    const agent = entrypoint({ name: 'agent', checkpointer }, async (calls: ToolCall[]) => {
      const replies: unknown[] = [];
      for (const call of calls) replies.push(await callTool(call));
      return replies.length;
    });
    const config = { configurable: { thread_id: 'functional' } };
    const setupArgs = { objective: 'Ship', initial_steps: [{ title: 'Build' }] };
    await agent.invoke(
      [
        { id: 'f1', name: 'planning_setup_plan', args: setupArgs, type: 'tool_call' },
        { id: 'f2', name: 'planning_setup_plan', args: setupArgs, type: 'tool_call' },
      ],
      config,
    );
    expect(seen.map((context) => context.checkpointNs)).toEqual([undefined, undefined]);
    expect([...sessions.keys()]).toEqual(['functional|']);
    // The checkpoint the entrypoint's step runs on: the one waiting for `agent`.
    const waiting = (await historyOf(agent, config)).find((state) => state.next.includes('agent'));
    expect(typeof idOf(waiting)).toBe('string');
    expect(seen.map((context) => context.checkpointId)).toEqual([idOf(waiting), idOf(waiting)]);
  });

  it("gives a subgraph's calls its own namespace (the parent's node names) and its own checkpoint", async () => {
    const { tools, seen, sessions } = recordingTools(
      (context) => `${context.threadId}|${context.checkpointNs ?? ''}`,
    );
    const checkpointer = new MemorySaver();
    const review = toolGraph(tools).compile();
    const research = new StateGraph(MessagesAnnotation)
      .addNode('review', review)
      .addEdge('__start__', 'review')
      .compile();
    const outer = new StateGraph(MessagesAnnotation)
      .addNode('research', research)
      .addNode('tools', new ToolNode(tools))
      .addConditionalEdges('__start__', (state) =>
        (state.messages.at(-1)?.id ?? '').startsWith('nested') ? 'research' : 'tools',
      )
      .compile({ checkpointer });
    const config = { configurable: { thread_id: 'sub' } };
    const nested = (message: AIMessage, id: string) => {
      message.id = id;
      return message;
    };
    await outer.invoke(
      { messages: [nested(setupCall('s1', 'Ship', ['Build', 'Test']), 'nested-1')] },
      config,
    );
    const result = await outer.invoke(
      { messages: [nested(markCall('m1', 'S002'), 'nested-2')] },
      config,
    );
    expect(lastToolMessage(result.messages)?.content).toBe('Step S002 marked as done.');
    await outer.invoke({ messages: [setupCall('s2', 'Ship', ['Top'])] }, config);

    expect(seen.map((context) => context.checkpointNs)).toEqual([
      'research|review',
      'research|review',
      undefined,
    ]);
    // The nested plan is one session across both runs; the top level's is another.
    const plan = selectLatest(sessions.get('sub|research|review') ?? new Session(), Plan);
    expect(plan?.steps.map((step) => step.status)).toEqual(['pending', 'done']);
    expect([...sessions.keys()]).toEqual(['sub|research|review', 'sub|']);

    // The id is the innermost subgraph's checkpoint, stored under its raw namespace.
    for (const context of seen.slice(0, 2)) {
      const raw = String(context.config?.configurable?.['checkpoint_ns']);
      const namespace = raw.slice(0, raw.lastIndexOf('|'));
      expect(namespace).toMatch(/^research:[^|]+\|review:[^|]+$/);
      const tuple = await checkpointer.getTuple({
        configurable: {
          thread_id: 'sub',
          checkpoint_ns: namespace,
          checkpoint_id: context.checkpointId,
        },
      });
      expect(tuple?.config.configurable?.['checkpoint_id']).toBe(context.checkpointId);
      const top = await checkpointer.getTuple({
        configurable: { thread_id: 'sub', checkpoint_ns: '', checkpoint_id: context.checkpointId },
      });
      expect(top).toBeUndefined();
    }
  });
});
