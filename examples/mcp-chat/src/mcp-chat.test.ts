import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSessionPool } from '@plankit/adapters/sessions';
import { FileStore } from '@plankit/adapters/stores';
import { Plan, selectLatest } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { runChat } from './chat-client.ts';
import { type McpChatServer, startMcpChatServer } from './mcp-chat-server.ts';

let directory: string | undefined;
let server: McpChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

describe('mcp-chat: one MCP server over Streamable HTTP, two clients at once', () => {
  it('keeps a plan per client, concurrently, notifies each about its own, and stores both', async () => {
    directory = await mkdtemp(join(tmpdir(), 'plankit-mcp-chat-'));
    const store = new FileStore({ directory });
    server = await startMcpChatServer({ store });
    expect(server.url.hostname).toBe('127.0.0.1');
    const [release, trip] = await Promise.all([
      runChat(server.url, 'Ship the release', ['Freeze', 'Test', 'Tag'], 2),
      runChat(server.url, 'Plan the trip', ['Book', 'Pack'], 1),
    ]);
    expect(release.sessionId).not.toBe(trip.sessionId);
    expect(release.plan?.objective).toBe('Ship the release');
    expect(release.plan?.steps.map((step) => step.status)).toEqual(['done', 'done', 'pending']);
    expect(trip.plan?.objective).toBe('Plan the trip');
    expect(trip.plan?.steps.map((step) => step.status)).toEqual(['done', 'pending']);
    // One notification per change of the client's own plan: setup, then two marks per step.
    expect(release.updates).toBe(1 + 2 * 2);
    expect(trip.updates).toBe(1 + 2 * 1);
    // Each client ended its MCP session: the plan was saved and left memory.
    await server.close();
    server = undefined;
    // A fresh pool over the same folder finds both plans under the clients' session ids.
    const pool = createSessionPool({ store });
    for (const chat of [release, trip]) {
      const session = await pool.get(chat.sessionId);
      if (!session.ok) throw session.error;
      expect(selectLatest(session.value, Plan)).toEqual(chat.plan);
    }
    await pool.close();
  });

  it('answers a request with an unknown session id with 404, and keeps serving the others', async () => {
    directory = await mkdtemp(join(tmpdir(), 'plankit-mcp-chat-'));
    server = await startMcpChatServer({ store: new FileStore({ directory }) });
    const stray = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': '../../etc/passwd',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(stray.status).toBe(404);
    const client = new Client({ name: 'chat', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(server.url);
    await client.connect(transport);
    const reply = await client.callTool({
      name: 'planning_setup_plan',
      arguments: { objective: 'Ship', initial_steps: [{ title: 'Tag' }] },
    });
    expect(reply.isError).toBeUndefined();
    expect(server.pool.has(transport.sessionId ?? '')).toBe(true);
    await client.close();
  });
});
