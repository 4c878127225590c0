import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { history, owners, planHistory } from '@plankit/core/plan-model';
import { afterEach, describe, expect, it } from 'vitest';
import { registerMcpTools } from './register-mcp-tools.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** One MCP server per agent, all on one session: each agent's tools carry its own id. */
async function agentClient(session: Session, agent: string): Promise<Client> {
  const tools = createPlanningTools(session, { extensions: [owners({ agent }), history()] });
  const server = new McpServer({ name: `plankit-${agent}`, version: '1.0.0' });
  registerMcpTools(server, tools, { session });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: agent, version: '1.0.0' });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('owners and history through a real MCP client and server', () => {
  it('lists the claim and release tools with explanation, refuses a claim naming the holder, records who and why', async () => {
    const session = new Session({ sessionId: 'mcp-owners', clock: () => 1 });
    const lead = await agentClient(session, 'lead');
    const worker = await agentClient(session, 'worker-1');
    const listed = await lead.listTools();
    expect(listed.tools.map((tool) => tool.name).slice(6)).toEqual([
      'planning_claim_step',
      'planning_release_step',
    ]);
    expect(listed.tools.slice(6).map((tool) => tool.annotations)).toEqual([
      {
        title: 'Claim a plan step',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      {
        title: 'Release a plan step',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    ]);
    const claimSchema = listed.tools[6]?.inputSchema as { properties: Record<string, unknown> };
    expect(Object.keys(claimSchema.properties)).toEqual(['step_id', 'explanation']);
    await lead.callTool({
      name: 'planning_setup_plan',
      arguments: { objective: 'Ship', initial_steps: [{ title: 'Build' }], explanation: 'Go.' },
    });
    const won = await worker.callTool({
      name: 'planning_claim_step',
      arguments: { step_id: 'S001', explanation: 'Mine.' },
    });
    expect(text(won)).toBe('Step S001 claimed by worker-1.');
    const refused = await lead.callTool({
      name: 'planning_claim_step',
      arguments: { step_id: 'S001' },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      'Tool validation failed: Step S001 is held by worker-1; claim another step or ask worker-1 to release it.',
    );
    expect(selectLatest(session, Plan)?.steps[0]?.owner).toBe('worker-1');
    expect(planHistory(session).map((r) => [r.command, r.actor, r.explanation])).toEqual([
      ['plankit.SetupPlan', 'lead', 'Go.'],
      ['plankit.ClaimStep', 'worker-1', 'Mine.'],
    ]);
  });
});
