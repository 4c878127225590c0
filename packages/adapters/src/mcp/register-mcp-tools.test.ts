import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AdapterError } from '../adapter-error.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { registerMcpTools } from './register-mcp-tools.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function connect() {
  const session = new Session({ sessionId: 'mcp', clock: () => 1 });
  const tools = createPlanningTools(session);
  const server = new McpServer({ name: 'plankit-test', version: '1.0.0' });
  registerMcpTools(server, tools, { session });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  cleanup = async () => {
    await client.close();
    await server.close();
  };
  return { session, tools, client };
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('registerMcpTools with a real McpServer and Client', () => {
  it('lists our definitions and runs tools/call, with isError on bad input', async () => {
    const { session, tools, client } = await connect();
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const [index, tool] of listed.tools.entries()) {
      const { $schema: _dialect, ...inputSchema } = tool.inputSchema as Record<string, unknown>;
      expect(inputSchema).toEqual(toolJsonSchema(tools[index] as (typeof tools)[number]));
      expect(tool.description).toBe(tools[index]?.description);
    }
    const ok = await client.callTool({
      name: 'planning_setup_plan',
      arguments: { objective: 'Ship v2', initial_steps: [{ title: 'Draft' }] },
    });
    expect(ok).toMatchObject({
      content: [{ type: 'text', text: 'Plan initialised with 1 step.' }],
    });
    expect(ok.isError).toBeUndefined();
    const bad = await client.callTool({
      name: 'planning_mark_step',
      arguments: { step_id: 'S001', status: 'done', colour: 'red' },
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe('Tool validation failed: Unrecognized key: "colour"');
    const unknown = await client.callTool({ name: 'planning_nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(selectLatest(session, Plan)?.steps).toHaveLength(1);
  });

  it('refuses a server that is not an McpServer', () => {
    expect(() => registerMcpTools({} as never, [], { session: new Session() })).toThrow(
      AdapterError,
    );
  });
});
