import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerMcpTools } from '@plankit/adapters/mcp';
import { openWorkspace } from '@plankit/adapters/workspace';
import { Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { waitingJob } from '../testing/review-fixtures.ts';
import { createInspectionTools } from './create-inspection-tools.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('the inspection tools over MCP', () => {
  it('are listed and answer tools/call through a real McpServer and Client, scoped to the workspace', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'plankit-inspect-'));
    const outside = await mkdtemp(path.join(os.tmpdir(), 'plankit-inspect-outside-'));
    const opened = await openWorkspace(dir);
    if (!opened.ok) throw opened.error;
    const workspace = opened.value;
    await workspace.writeText('main_plan.md', '# Plan\n\n1. Extract the requirements.\n');
    await workspace.writeMemory('# Workspace\n\nThe input is docs/gobd.pdf.\n');
    await symlink(outside, path.join(dir, 'escape'));

    const job = waitingJob(Date.UTC(2026, 0, 15, 9));
    const tools = createInspectionTools({ job: () => job, files: workspace });
    const session = new Session({ sessionId: 'review-chat' });
    const server = new McpServer({ name: 'plankit-review', version: '1.0.0' });
    registerMcpTools(server, tools, { session });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'review-companion', version: '1.0.0' });
    await client.connect(clientSide);
    cleanup = async () => {
      await client.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    };

    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));

    const status = await client.callTool({ name: 'get_job', arguments: {} });
    expect(text(status)).toBe(
      [
        'Job job-7: waiting for review of the plan made in strategic phase 1 (initial).',
        '',
        'Todos: 4 of 4 completed.',
        'Review: required, 0 change requests (soft limit 3).',
      ].join('\n'),
    );
    const plan = await client.callTool({ name: 'read_plan', arguments: {} });
    expect(text(plan)).toBe('main_plan.md:\n\n# Plan\n\n1. Extract the requirements.\n');
    const todos = await client.callTool({ name: 'get_todos', arguments: {} });
    expect(text(todos)).toContain('waiting for review ("Phase 1: Extract"):\n- 1. Task 1');
    const found = await client.callTool({ name: 'search_workspace', arguments: { query: 'GOBD' } });
    expect(text(found)).toBe(
      '1 line contains "GOBD":\n\nworkspace.md:3: The input is docs/gobd.pdf.',
    );

    for (const bad of ['../../etc/passwd', '/etc/passwd', 'escape/anything.txt']) {
      const refused = await client.callTool({
        name: 'read_workspace_file',
        arguments: { path: bad },
      });
      expect(refused.isError, bad).toBe(true);
      expect(text(refused)).toMatch(
        /^Tool validation failed: Path ".+" (contains|is absolute|leads outside)/,
      );
    }
    const extra = await client.callTool({
      name: 'get_trace',
      arguments: { last: 5, job: 'job-8' },
    });
    expect(extra.isError).toBe(true);
  });
});
