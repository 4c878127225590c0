import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type NewSessionRequest,
  PROTOCOL_VERSION,
  RequestError,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectClient, type SpawnedAgent, spawnAgent } from './connect-client.ts';

const session: NewSessionRequest = { cwd: '/work', mcpServers: [] };
const isPlan = (n: SessionNotification): boolean => n.update.sessionUpdate === 'plan';
const summary = (n: SessionNotification | undefined): string[] =>
  n?.update.sessionUpdate === 'plan' ? n.update.entries.map((e) => `${e.status} ${e.content}`) : [];

let store: string;
const agents: SpawnedAgent[] = [];
beforeEach(async () => {
  store = await mkdtemp(join(tmpdir(), 'plankit-acp-process-'));
});
afterEach(async () => {
  for (const agent of agents.splice(0)) {
    agent.child.stdin?.end();
    await agent.exited;
  }
  await rm(store, { recursive: true, force: true });
});

const spawned = (): SpawnedAgent => {
  const agent = spawnAgent(store);
  agents.push(agent);
  return agent;
};

// Each test starts the agent twice (Node with tsx on the sources): generous timeouts, so a busy
// machine makes them slower, never red.
describe('the ACP agent over stdio, as an editor launches it', () => {
  it('serves a prompt, then replays the saved plan to a new process on session/load', async () => {
    const first = spawned();
    const editor = connectClient(first.stream);
    const init = await editor.connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
    });
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const { sessionId } = await editor.connection.agent.request('session/new', session);
    const done = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Add a --json flag' }],
    });
    expect(done.stopReason).toBe('end_turn');
    const plans = editor.updates.filter(isPlan);
    expect(plans.map(summary)).toEqual([
      ['pending Read the code', 'pending Make the change', 'pending Run the tests'],
      ['in_progress Read the code', 'pending Make the change', 'pending Run the tests'],
      ['completed Read the code', 'pending Make the change', 'pending Run the tests'],
      ['completed Read the code', 'pending [blocked] Make the change', 'pending Run the tests'],
    ]);
    // The client leaves: the agent saves and exits on its own.
    editor.connection.close();
    first.child.stdin?.end();
    expect(await first.exited).toBe(0);

    const second = spawned();
    const again = connectClient(second.stream);
    await again.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION });
    // The new process has not loaded the session yet, and never saw the made-up one.
    const early = await again.connection.agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Carry on' }] })
      .catch((error: unknown) => error);
    expect(early).toBeInstanceOf(RequestError);
    expect(early).toMatchObject({ code: -32002, data: { sessionId } });
    const unknown = await again.connection.agent
      .request('session/load', { ...session, sessionId: 'made-up' })
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: -32002, data: { sessionId: 'made-up' } });
    await again.connection.agent.request('session/load', { ...session, sessionId });
    expect(summary(await again.waitFor(isPlan))).toEqual(summary(plans.at(-1)));
    expect(again.updates.filter(isPlan)).toHaveLength(1);
  }, 120_000);

  it('exits when the client disconnects mid-turn, with the plan saved as far as it got', async () => {
    const first = spawned();
    const editor = connectClient(first.stream);
    await editor.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await editor.connection.agent.request('session/new', session);
    const turn = editor.connection.agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Ship it' }] })
      .catch((error: unknown) => error);
    await editor.waitFor(isPlan);
    editor.connection.close();
    first.child.stdin?.end();
    expect(await first.exited).toBe(0);
    await turn;

    const second = spawned();
    const again = connectClient(second.stream);
    await again.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION });
    await again.connection.agent.request('session/load', { ...session, sessionId });
    const replayed = summary(await again.waitFor(isPlan));
    expect(replayed).toHaveLength(3);
    expect(replayed[2]).toBe('pending Run the tests');
  }, 120_000);
});
