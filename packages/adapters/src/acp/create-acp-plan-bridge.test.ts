import {
  type AgentContext,
  agent,
  client,
  RequestError,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool, type SessionPool } from '../sessions/create-session-pool.ts';
import { ACPSessionError } from './acp-session-error.ts';
import { type ACPPlanBridge, createACPPlanBridge } from './create-acp-plan-bridge.ts';
import { toACPError } from './to-acp-error.ts';

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

/** The SDK's error for a bridge refusal, as an agent throws it. */
const requestError = (error: Parameters<typeof toACPError>[0]): RequestError => {
  const { code, message, data } = toACPError(error);
  return new RequestError(code, message, data);
};

/**
 * An agent of the real SDK whose session requests go through `bridge` as an agent's should
 * (new follows, load replays then follows, prompt checks the session then runs one call), and
 * a client recording what it gets.
 */
function served(bridge: ACPPlanBridge) {
  const seen: SessionNotification[] = [];
  let next = 0;
  const agentApp = agent()
    .onRequest('initialize', () => ({ protocolVersion: 1 }))
    .onRequest('session/new', ({ client: acp }) => {
      const sessionId = `s${++next}`;
      const followed = bridge.follow(acp, sessionId);
      if (!followed.ok) throw requestError(followed.error);
      return { sessionId };
    })
    .onRequest('session/load', async ({ client: acp, params }) => {
      const sent = await bridge.sendPlan(acp, params.sessionId);
      if (!sent.ok) throw requestError(sent.error);
      bridge.follow(acp, params.sessionId);
      return {};
    })
    .onRequest('session/prompt', async ({ client: acp, params }) => {
      const open = bridge.checkSession(params.sessionId);
      if (!open.ok) throw requestError(open.error);
      await bridge.callTool(acp, params.sessionId, {
        toolCallId: 'c1',
        name: 'planning_setup_plan',
        arguments: setup,
      });
      return { stopReason: 'end_turn' as const };
    });
  const clientApp = client().onNotification('session/update', ({ params }) => {
    seen.push(params);
  });
  const connection = clientApp.connect(agentApp);
  return { seen, connection };
}

/** What a request was refused with: the SDK's RequestError, as the client got it. */
/** A bridge on `pool` whose client records every notification it is sent, in `sent`. */
function recordingBridge(on: SessionPool) {
  const sent: SessionNotification[] = [];
  const recorder = {
    notify: async (_method: 'session/update', params: SessionNotification) => {
      sent.push(params);
    },
  };
  return { sent, recorder, bridge: createACPPlanBridge({ pool: on, tools: TOOLS }) };
}

async function refusedWith(request: Promise<unknown>): Promise<RequestError> {
  const error = await request.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof RequestError)) throw new Error(`expected a RequestError, got ${error}`);
  return error;
}

let pool: SessionPool;

/** A pool on `store`, which holds a plan under `saved`, evicted so it must be loaded. */
async function poolWithSavedPlan(store: MemoryStore = new MemoryStore()): Promise<SessionPool> {
  const saved = createSessionPool({ store });
  await saved.run('saved', async (session) => {
    const setupTool = TOOLS.find((tool) => tool.name === 'planning_setup_plan');
    if (setupTool === undefined) throw new Error('no setup tool');
    await invokeTool(setupTool, setup, { session });
  });
  await saved.evict('saved');
  return saved;
}
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
    pool = await poolWithSavedPlan();
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const { updates, agentContext, connection } = connected();
    await connection.agent.request('initialize', { protocolVersion: 1 });
    bridge.follow(agentContext(), 'empty');
    expect(await bridge.sendPlan(agentContext(), 'empty')).toEqual({ ok: true, value: false });
    expect(await bridge.sendPlan(agentContext(), 'saved')).toEqual({ ok: true, value: true });
    // The store held it: the resumed session is open.
    expect(bridge.checkSession('saved')).toEqual({ ok: true, value: 'saved' });
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
    const { sent, recorder, bridge } = recordingBridge(pool);
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
    bridge.follow(gone, 'one');
    const result = await bridge.callTool(gone, 'one', {
      toolCallId: 'x',
      name: 'planning_setup_plan',
      arguments: setup,
    });
    expect(result?.success).toBe(true);
    // The tool_call, the plan update and the tool_call_update.
    expect(errors).toHaveLength(3);
  });

  it('refuses session/prompt for a session id the agent never opened with -32002 naming it, changing nothing', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const { seen, connection } = served(bridge);
    await connection.agent.request('initialize', { protocolVersion: 1 });
    const error = await refusedWith(
      connection.agent.request('session/prompt', {
        sessionId: 'made-up',
        prompt: [{ type: 'text', text: 'Ship it' }],
      }),
    );
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ sessionId: 'made-up' });
    expect(error.message).toBe(
      'Resource not found: sessionId "made-up" names no session of this agent: session/new did not create it and session/load found nothing saved under it. Open a session with session/new (or session/load one the agent saved) and use the id it answers with.',
    );
    expect(pool.has('made-up')).toBe(false);
    expect(seen).toEqual([]);
    // A session the agent created serves the same request.
    const { sessionId } = await connection.agent.request('session/new', {
      cwd: '/work',
      mcpServers: [],
    });
    expect(
      await connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Ship it' }],
      }),
    ).toEqual({ stopReason: 'end_turn' });
    connection.close();
  });

  it('refuses session/load of an id the store holds nothing under, and resumes one it holds', async () => {
    const store = new MemoryStore();
    pool = await poolWithSavedPlan(store);
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const { seen, connection } = served(bridge);
    await connection.agent.request('initialize', { protocolVersion: 1 });
    const error = await refusedWith(
      connection.agent.request('session/load', {
        sessionId: 'never-saved',
        cwd: '/work',
        mcpServers: [],
      }),
    );
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ sessionId: 'never-saved' });
    // The empty copy the load made is gone, and the store still holds nothing under the id.
    expect(pool.has('never-saved')).toBe(false);
    const listed = await store.list();
    expect(listed.ok && listed.value).toEqual(['saved']);
    expect(bridge.checkSession('never-saved').ok).toBe(false);

    await connection.agent.request('session/load', {
      sessionId: 'saved',
      cwd: '/work',
      mcpServers: [],
    });
    expect(seen.map((n) => [n.sessionId, n.update.sessionUpdate])).toEqual([['saved', 'plan']]);
    expect(
      await connection.agent.request('session/prompt', {
        sessionId: 'saved',
        prompt: [{ type: 'text', text: 'Carry on' }],
      }),
    ).toEqual({ stopReason: 'end_turn' });
    connection.close();
  });

  it('answers a planning call on a session that is not open as a failed call, sending and loading nothing', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const { sent, recorder, bridge } = recordingBridge(pool);
    const result = await bridge.callTool(recorder, 'ghost', {
      toolCallId: 'x',
      name: 'planning_setup_plan',
      arguments: setup,
    });
    expect(result?.success).toBe(false);
    expect(result?.message).toBe(
      'Tool validation failed: sessionId "ghost" names no session of this agent: session/new did not create it and session/load found nothing saved under it. Open a session with session/new (or session/load one the agent saved) and use the id it answers with.',
    );
    expect(ACPSessionError.isInstance(result?.success === false ? result.error : undefined)).toBe(
      true,
    );
    expect(result).toMatchObject({ error: { code: 'session_not_found', field: 'sessionId' } });
    expect(sent).toEqual([]);
    expect(pool.has('ghost')).toBe(false);
  });

  it('escapes and clips the session id a refusal names, under 2,000 characters', async () => {
    pool = createSessionPool({ store: new MemoryStore() });
    const bridge = createACPPlanBridge({ pool, tools: TOOLS });
    const forged = 'x\n\u202eevil\u0000';
    const checked = bridge.checkSession(`${forged}${'y'.repeat(5000)}`);
    if (checked.ok) throw new Error('expected a refusal');
    const answer = toACPError(checked.error);
    expect(answer.code).toBe(-32002);
    expect(answer.message.length).toBeLessThan(2000);
    expect(answer.message).toContain('sessionId "x\\n\\u202eevil\\u0000yyy');
    for (const raw of ['\n', '\u202e', '\u0000']) expect(answer.message).not.toContain(raw);
    expect(answer.data?.sessionId).toHaveLength(256);
    // A session id the pool refuses is a bad parameter, in the pool's words.
    const invalid = await bridge.sendPlan({ notify: async () => {} }, '..');
    if (invalid.ok) throw new Error('expected a refusal');
    expect(toACPError(invalid.error)).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid params: /),
    });
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
