import {
  type AgentContext,
  agent,
  client,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool, type SessionPool } from '../sessions/create-session-pool.ts';
import { createACPPlanBridge } from './create-acp-plan-bridge.ts';

const TOOLS = createPlanningTools(new Session());

/** An agent and a client of the real SDK connected in memory; the client records updates. */
function connected() {
  const seen: SessionNotification[] = [];
  const waiters: (() => void)[] = [];
  let context: AgentContext | undefined;
  const agentApp = agent()
    .onRequest('initialize', () => ({ protocolVersion: 1 }))
    .onConnect((connection) => {
      context = connection.client;
    });
  const clientApp = client().onNotification('session/update', ({ params }) => {
    seen.push(params);
    for (const wake of waiters.splice(0)) wake();
  });
  const connection = clientApp.connect(agentApp);
  const updates = async (count: number): Promise<SessionNotification[]> => {
    while (seen.length < count) await new Promise<void>((wake) => waiters.push(wake));
    return seen.slice(0, count);
  };
  return { seen, updates, connection, agentContext: () => context as AgentContext };
}

const setup = {
  objective: 'Ship',
  initial_steps: [{ title: 'Build' }, { title: 'Test' }],
};

let pool: SessionPool;
afterEach(async () => {
  await pool.close();
});

describe('createACPPlanBridge', () => {
  it('sends a plan update for each plan change, after the tool_call and before its update', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const { updates, agentContext, connection } = connected();
    await connection.agent.request('initialize', { protocolVersion: 1 });
    const acp = agentContext();
    expect(bridge.follow(acp, 'one').ok).toBe(true);

    const result = await bridge.callTool(acp, 'one', {
      toolCallId: 'c1',
      name: 'planning_setup_plan',
      arguments: JSON.stringify(setup),
    });
    expect(result?.success).toBe(true);
    const [call, plan, done] = (await updates(3)).map((n) => n.update);
    expect(call).toMatchObject({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      kind: 'think',
      status: 'in_progress',
    });
    expect(plan).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Build', priority: 'medium', status: 'pending' },
        { content: 'Test', priority: 'medium', status: 'pending' },
      ],
    });
    expect(done).toMatchObject({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'completed',
    });
    connection.close();
  });

  it('shows a read as kind read with no plan update, and a bad call as failed', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const { updates, agentContext, connection } = connected();
    await connection.agent.request('initialize', { protocolVersion: 1 });
    const acp = agentContext();
    bridge.follow(acp, 'one');
    await bridge.callTool(acp, 'one', {
      toolCallId: 'a',
      name: 'planning_setup_plan',
      arguments: setup,
    });
    await bridge.callTool(acp, 'one', {
      toolCallId: 'b',
      name: 'planning_read_plan',
      arguments: {},
    });
    const bad = await bridge.callTool(acp, 'one', {
      toolCallId: 'c',
      name: 'planning_mark_step',
      arguments: { step_id: 'S999', status: 'done' },
    });
    expect(bad?.success).toBe(false);
    const rest = (await updates(7)).slice(3).map((n) => n.update);
    expect(rest.map((u) => u.sessionUpdate)).toEqual([
      'tool_call',
      'tool_call_update',
      'tool_call',
      'tool_call_update',
    ]);
    expect(rest[0]).toMatchObject({ kind: 'read' });
    expect(rest[3]).toMatchObject({ toolCallId: 'c', status: 'failed' });
    connection.close();
  });

  it('replays the whole plan with sendPlan, and sends nothing for a session without one', async () => {
    const store = new MemoryStore();
    pool = createSessionPool({ store });
    await pool.run('saved', async (session) => {
      const setupTool = TOOLS.find((tool) => tool.name === 'planning_setup_plan');
      if (setupTool === undefined) throw new Error('no setup tool');
      await invokeTool(setupTool, setup, { session });
    });
    await pool.evict('saved');
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const { updates, agentContext, connection } = connected();
    await connection.agent.request('initialize', { protocolVersion: 1 });
    expect(await bridge.sendPlan(agentContext(), 'empty')).toEqual({ ok: true, value: false });
    expect(await bridge.sendPlan(agentContext(), 'saved')).toEqual({ ok: true, value: true });
    const [replayed] = await updates(1);
    expect(replayed).toEqual({
      sessionId: 'saved',
      update: {
        sessionUpdate: 'plan',
        entries: [
          { content: 'Build', priority: 'medium', status: 'pending' },
          { content: 'Test', priority: 'medium', status: 'pending' },
        ],
      },
    });
    connection.close();
  });

  it('keeps two sessions on one connection apart', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const { updates, agentContext, connection } = connected();
    await connection.agent.request('initialize', { protocolVersion: 1 });
    const acp = agentContext();
    bridge.follow(acp, 'a');
    bridge.follow(acp, 'b');
    await bridge.callTool(acp, 'a', {
      toolCallId: '1',
      name: 'planning_setup_plan',
      arguments: { objective: 'A', initial_steps: [{ title: 'Only A' }] },
    });
    await bridge.callTool(acp, 'b', {
      toolCallId: '1',
      name: 'planning_setup_plan',
      arguments: { objective: 'B', initial_steps: [{ title: 'Only B' }] },
    });
    const plans = (await updates(6)).filter((n) => n.update.sessionUpdate === 'plan');
    expect(plans.map((n) => [n.sessionId, n.update])).toEqual([
      [
        'a',
        {
          sessionUpdate: 'plan',
          entries: [{ content: 'Only A', priority: 'medium', status: 'pending' }],
        },
      ],
      [
        'b',
        {
          sessionUpdate: 'plan',
          entries: [{ content: 'Only B', priority: 'medium', status: 'pending' }],
        },
      ],
    ]);
    connection.close();
  });

  it('runs nothing once the turn is aborted, and stops sending after unfollow and close', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const sent: SessionNotification[] = [];
    const recorder = {
      notify: async (_method: 'session/update', params: SessionNotification) => {
        sent.push(params);
      },
    };
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const followed = bridge.follow(recorder, 'one');
    const aborted = AbortSignal.abort();
    const skipped = await bridge.callTool(
      recorder,
      'one',
      { toolCallId: 'x', name: 'planning_setup_plan', arguments: setup },
      { signal: aborted },
    );
    expect(skipped).toBeUndefined();
    expect(sent).toEqual([]);
    expect(pool.has('one')).toBe(false);
    if (followed.ok) followed.value();
    await bridge.callTool(recorder, 'one', {
      toolCallId: 'y',
      name: 'planning_setup_plan',
      arguments: setup,
    });
    expect(sent.map((n) => n.update.sessionUpdate)).toEqual(['tool_call', 'tool_call_update']);
    bridge.follow(recorder, 'one');
    bridge.close();
    await bridge.callTool(recorder, 'one', {
      toolCallId: 'z',
      name: 'planning_clear_plan',
      arguments: {},
    });
    expect(sent.filter((n) => n.update.sessionUpdate === 'plan')).toEqual([]);
  });

  it('sends the plan a rollback restores', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const plans: SessionNotification['update'][] = [];
    let third: () => void = () => {};
    const thirdPlan = new Promise<void>((resolve) => {
      third = resolve;
    });
    const recorder = {
      notify: async (_method: 'session/update', params: SessionNotification) => {
        if (params.update.sessionUpdate !== 'plan') return;
        plans.push(params.update);
        if (plans.length === 3) third();
      },
    };
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    bridge.follow(recorder, 'one');
    await bridge.callTool(recorder, 'one', {
      toolCallId: 'a',
      name: 'planning_setup_plan',
      arguments: setup,
    });
    const before = await pool.run('one', (session) => session.snapshot());
    if (!before.ok) throw before.error;
    await bridge.callTool(recorder, 'one', {
      toolCallId: 'b',
      name: 'planning_mark_step',
      arguments: { step_id: 'S001', status: 'in_progress' },
    });
    // Only the rollback changes the plan now: its update is the third.
    await pool.run('one', (session) => {
      session.rollback(before.value);
    });
    await thirdPlan;
    expect(plans.map((u) => (u.sessionUpdate === 'plan' ? u.entries[0]?.status : ''))).toEqual([
      'pending',
      'in_progress',
      'pending',
    ]);
  });

  it('reports a notification the client could not take to onError, and still saves the plan', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const errors: unknown[] = [];
    const gone = {
      notify: async () => {
        throw new Error('connection closed');
      },
    };
    const bridge = createACPPlanBridge({ pool, tools: TOOLS, onError: (e) => errors.push(e) });
    const result = await bridge.callTool(gone, 'one', {
      toolCallId: 'x',
      name: 'planning_setup_plan',
      arguments: setup,
    });
    expect(result?.success).toBe(true);
    expect(errors).toHaveLength(2);
  });

  it('refuses a bad pool, tools or option', () => {
    pool = createSessionPool({ store: new MemoryStore() });
    expect(() => createACPPlanBridge({ pool: {} as SessionPool, tools: TOOLS })).toThrow(
      'createACPPlanBridge: options.pool must be a session pool (createSessionPool).',
    );
    expect(() => createACPPlanBridge({ pool, tools: 'x' as never })).toThrow(
      'options.tools must be an array',
    );
    expect(() => createACPPlanBridge({ pool, tools: TOOLS, extra: 1 } as never)).toThrow('extra');
  });
});
