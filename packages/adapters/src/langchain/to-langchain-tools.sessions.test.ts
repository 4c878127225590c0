import type { ToolMessage } from '@langchain/core/messages';
import { MemorySaver, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool } from '../sessions/create-session-pool.ts';
import type { LangChainContext } from './langchain-context.ts';
import { lastToolMessage, markCall, setupCall } from './testing/graph-calls.ts';
import { toLangChainTools } from './to-langchain-tools.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function toolGraph(tools: ReturnType<typeof toLangChainTools>) {
  return new StateGraph(MessagesAnnotation)
    .addNode('tools', new ToolNode(tools))
    .addEdge('__start__', 'tools')
    .compile({ checkpointer: new MemorySaver() });
}

describe('toLangChainTools: one session per LangGraph thread', () => {
  it('keeps two concurrent threads on separate plans through a session pool', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store, max: 1 });
    const seen: LangChainContext[] = [];
    const resolver = pool.resolver((context: LangChainContext) => {
      seen.push(context);
      return context.threadId;
    });
    const tools = toLangChainTools(createPlanningTools(new Session()), {
      session: async (context) => {
        // Interleave the two threads' resolutions.
        await sleep(context.threadId === 'thread-a' ? 15 : 0);
        return resolver(context);
      },
    });
    const graph = toolGraph(tools);
    const a = { configurable: { thread_id: 'thread-a' } };
    const b = { configurable: { thread_id: 'thread-b' } };
    await Promise.all([
      graph.invoke({ messages: [setupCall('a1', 'Ship A', ['A one', 'A two'])] }, a),
      graph.invoke({ messages: [setupCall('b1', 'Ship B', ['B one'])] }, b),
    ]);
    const [ra, rb] = await Promise.all([
      graph.invoke({ messages: [markCall('a2', 'S002')] }, a),
      graph.invoke({ messages: [markCall('b2', 'S001')] }, b),
    ]);
    expect(lastToolMessage(ra.messages)?.content).toBe('Step S002 marked as done.');
    expect(lastToolMessage(rb.messages)?.content).toBe('Step S001 marked as done.');
    // A pool of one: each thread was evicted and reloaded from the store in between.
    for (const [id, objective, statuses] of [
      ['thread-a', 'Ship A', ['pending', 'done']],
      ['thread-b', 'Ship B', ['done']],
    ] as const) {
      const session = await pool.get(id);
      if (!session.ok) throw session.error;
      const plan = selectLatest(session.value, Plan);
      expect(plan?.objective).toBe(objective);
      expect(plan?.steps.map((step) => step.status)).toEqual(statuses);
    }
    expect(new Set(seen.map((context) => context.threadId))).toEqual(
      new Set(['thread-a', 'thread-b']),
    );
    expect(seen.every((context) => context.config !== undefined)).toBe(true);
    await pool.close();
  });

  it('refuses a call whose run names no thread_id (session_unresolved), never a shared default', async () => {
    let called = 0;
    const tools = toLangChainTools(createPlanningTools(new Session()), {
      session: () => {
        called++;
        return new Session();
      },
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('tools', new ToolNode(tools))
      .addEdge('__start__', 'tools')
      .compile();
    const result = await graph.invoke({ messages: [setupCall('x1', 'Ship', ['One'])] });
    const reply = lastToolMessage(result.messages);
    expect(reply?.status).toBe('error');
    expect(reply?.content).toBe(
      'Tool validation failed: The run names no conversation: pass config.configurable.thread_id (a non-empty string) to invoke or stream.',
    );
    expect(called).toBe(0);
  });

  it('refuses a hostile thread id before the store sees it (conversation_id_invalid)', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store });
    const tools = toLangChainTools(createPlanningTools(new Session()), {
      session: pool.resolver((context: LangChainContext) => context.threadId),
    });
    const graph = toolGraph(tools);
    const result = await graph.invoke(
      { messages: [setupCall('h1', 'Ship', ['One'])] },
      { configurable: { thread_id: '../../etc/passwd' } },
    );
    const reply = lastToolMessage(result.messages);
    expect(reply?.status).toBe('error');
    expect(String(reply?.content)).toMatch(/^Tool validation failed: id must be 1-256 characters/);
    expect(pool.size).toBe(0);
    await pool.close();
  });

  it('answers a resolver failure as a status-error ToolMessage', async () => {
    const [setup] = toLangChainTools(createPlanningTools(new Session()), {
      session: () => {
        throw new Error('database down');
      },
    });
    const reply = (await setup?.invoke(
      { id: 'r1', name: 'planning_setup_plan', args: { objective: 'Ship' }, type: 'tool_call' },
      { configurable: { thread_id: 't1' } },
    )) as ToolMessage;
    expect(reply.status).toBe('error');
    expect(reply.content).toBe(
      'Tool validation failed: The session resolver failed: database down',
    );
  });
});
