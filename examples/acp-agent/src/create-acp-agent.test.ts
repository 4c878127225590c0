import { type NewSessionRequest, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
import { toACPPlanUpdate } from '@plankit/adapters/acp';
import { createSessionPool, type SessionPool } from '@plankit/adapters/sessions';
import { MemoryStore } from '@plankit/adapters/stores';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { connectClient, type RecordingClient } from './connect-client.ts';
import { createACPAgent } from './create-acp-agent.ts';
import type { PlanningModel } from './planning-model.ts';
import { createScriptedModel } from './scripted-model.ts';

const TOOLS = createPlanningTools(new Session(), { text: 'unicode' });
const session: NewSessionRequest = { cwd: '/work', mcpServers: [] };

let pool: SessionPool;
afterEach(async () => {
  await pool.close();
});

/** The plan updates a client got for `sessionId`, as their `update`s. */
const plansOf = (client: RecordingClient, sessionId: string) =>
  client.updates
    .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === 'plan')
    .map((n) => n.update);

/** The session's plan after each change, recorded from the pool, as ACP plan updates. */
function planHistory(id: string): ReturnType<typeof toACPPlanUpdate>[] {
  const seen: ReturnType<typeof toACPPlanUpdate>[] = [];
  const subscribed = pool.subscribe(id, (_event, live) => {
    seen.push(toACPPlanUpdate(selectLatest(live, Plan)));
  });
  if (!subscribed.ok) throw subscribed.error;
  return seen;
}

async function started(model: PlanningModel = createScriptedModel()) {
  pool = createSessionPool({ store: new MemoryStore() });
  const agent = createACPAgent({ pool, tools: TOOLS, model });
  const client = connectClient(agent.app);
  const init = await client.connection.agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
  });
  return { agent, client, init };
}

const prompt = (client: RecordingClient, sessionId: string, text: string) =>
  client.connection.agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text }],
  });

describe('the ACP agent, in memory', () => {
  it('initializes, opens a session and sends a plan update after each plan change of a prompt', async () => {
    const { client, init } = await started();
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const { sessionId } = await client.connection.agent.request('session/new', session);
    const history = planHistory(sessionId);
    expect(await prompt(client, sessionId, 'Add a --json flag')).toEqual({
      stopReason: 'end_turn',
    });
    expect(history).toHaveLength(4);
    expect(plansOf(client, sessionId)).toEqual(history);
    expect(history.at(-1)?.entries.map((e) => `${e.status} ${e.content}`)).toEqual([
      'completed Read the code',
      'pending [blocked] Make the change',
      'pending Run the tests',
    ]);
    // Each planning call is a think tool call, started then completed, around its plan update.
    const kinds = client.updates.map((n) =>
      n.update.sessionUpdate === 'tool_call'
        ? `call ${n.update.kind}`
        : n.update.sessionUpdate === 'tool_call_update'
          ? `update ${n.update.status}`
          : n.update.sessionUpdate,
    );
    expect(kinds).toEqual([
      ...Array.from({ length: 4 }, () => ['call think', 'plan', 'update completed']).flat(),
      'agent_message_chunk',
    ]);
    client.connection.close();
  });

  it('replays the whole plan on session/load, on another connection', async () => {
    const { agent, client } = await started();
    const { sessionId } = await client.connection.agent.request('session/new', session);
    await prompt(client, sessionId, 'Ship it');
    await prompt(client, sessionId, 'Carry on');
    client.connection.close();
    const later = connectClient(agent.app);
    await later.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION });
    await later.connection.agent.request('session/load', { ...session, sessionId });
    const live = await pool.get(sessionId);
    if (!live.ok) throw live.error;
    expect(later.updates.map((n) => n.update)).toEqual([
      toACPPlanUpdate(selectLatest(live.value, Plan)),
    ]);
    expect(later.updates[0]?.sessionId).toBe(sessionId);
    later.connection.close();
  });

  it('keeps two sessions on one connection apart', async () => {
    const { client } = await started();
    const a = (await client.connection.agent.request('session/new', session)).sessionId;
    const b = (await client.connection.agent.request('session/new', session)).sessionId;
    const historyA = planHistory(a);
    const historyB = planHistory(b);
    await Promise.all([
      prompt(client, a, 'Plan A'),
      prompt(client, b, 'Plan B').then(() => prompt(client, b, 'Carry on')),
    ]);
    expect(plansOf(client, a)).toEqual(historyA);
    expect(plansOf(client, b)).toEqual(historyB);
    expect(historyA).toHaveLength(4);
    expect(historyB).toHaveLength(6);
    client.connection.close();
  });

  it('leaves nothing running when the client disconnects mid-turn', async () => {
    let reached: () => void = () => {};
    const atSecondStep = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const scripted = createScriptedModel();
    // The second model step waits until the turn is aborted, as a slow model would.
    const slow: PlanningModel = {
      reply: (request, signal) => {
        if (request.step === 0) return scripted.reply(request, signal);
        reached();
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
    };
    const { agent, client } = await started(slow);
    const { sessionId } = await client.connection.agent.request('session/new', session);
    const turn = prompt(client, sessionId, 'Ship it').catch((error: unknown) => error);
    await atSecondStep;
    expect(agent.running()).toBe(1);
    client.connection.close();
    await agent.idle();
    expect(await turn).toBeInstanceOf(Error);
    expect(agent.running()).toBe(0);
    expect(pool.stats().held).toBe(0);
    const live = await pool.get(sessionId);
    if (!live.ok) throw live.error;
    // The first step's calls ran; nothing after the disconnect did.
    expect(selectLatest(live.value, Plan)?.steps.map((s) => s.status)).toEqual([
      'in_progress',
      'pending',
      'pending',
    ]);
  });

  it('refuses a prompt or a load naming a session it never created or saved, with -32002', async () => {
    const { client } = await started();
    const refused = async (request: Promise<unknown>): Promise<RequestError> => {
      const error = await request.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      if (!(error instanceof RequestError)) throw new Error('expected a RequestError');
      return error;
    };
    const prompted = await refused(prompt(client, 'not-a-session', 'Ship it'));
    expect(prompted.code).toBe(-32002);
    expect(prompted.data).toEqual({ sessionId: 'not-a-session' });
    expect(prompted.message).toContain('sessionId "not-a-session" names no session of this agent');
    const loaded = await refused(
      client.connection.agent.request('session/load', { ...session, sessionId: 'not-saved' }),
    );
    expect(loaded.code).toBe(-32002);
    expect(loaded.data).toEqual({ sessionId: 'not-saved' });
    // Nothing was created for either id, and no update was sent.
    expect(pool.has('not-a-session')).toBe(false);
    expect(pool.has('not-saved')).toBe(false);
    expect(client.updates).toEqual([]);
    client.connection.close();
  });

  it('stops a turn on session/cancel', async () => {
    let reached: () => void = () => {};
    const atSecondStep = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const scripted = createScriptedModel();
    const slow: PlanningModel = {
      reply: (request, signal) => {
        if (request.step === 0) return scripted.reply(request, signal);
        reached();
        return new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve({ text: '', calls: [] }), { once: true });
        });
      },
    };
    const { client } = await started(slow);
    const { sessionId } = await client.connection.agent.request('session/new', session);
    const turn = prompt(client, sessionId, 'Ship it');
    await atSecondStep;
    await client.connection.agent.notify('session/cancel', { sessionId });
    expect(await turn).toEqual({ stopReason: 'cancelled' });
    client.connection.close();
  });
});
