import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { parsePlanView } from '@plankit/core/plan-view';
import { describe, expect, it } from 'vitest';
import { bundleWorker } from '../testing/bundle-worker.ts';
import { UNICODE_OBJECTIVE, UNICODE_TITLES } from '../testing/unicode-plan-case.ts';

const run = promisify(execFile);
const SRC = fileURLToPath(new URL('..', import.meta.url));
// The server and the sources it imports, bundled once: each test starts several servers.
const SERVER = bundleWorker(
  fileURLToPath(new URL('./testing/mcp-stdio-server.ts', import.meta.url)),
);
const NODE_ARGS = ['--conditions=@plankit/source', SERVER];
const INSPECTOR = fileURLToPath(
  new URL('../../../../node_modules/.bin/mcp-inspector-cli', import.meta.url),
);

type CallResult = {
  content: { type: string; text: string }[];
  structuredContent?: unknown;
  isError?: boolean;
};

interface StdioSession {
  readonly client: {
    listTools(): Promise<{
      tools: { name: string; annotations?: unknown; outputSchema?: unknown }[];
    }>;
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<CallResult>;
    subscribeResource(params: { uri: string }): Promise<unknown>;
    readResource(params: { uri: string }): Promise<{ contents: { text: string }[] }>;
    getPrompt(params: { name: string }): Promise<{ messages: { content: { text: string } }[] }>;
    close(): Promise<void>;
  };
  readonly updates: string[];
}

// The server runs from src (our `@plankit/source` condition), in its own process.
async function connect(
  client: 'v1' | 'v2',
  server: 'v1' | 'v2',
  text: 'ascii' | 'unicode' = 'ascii',
): Promise<StdioSession> {
  const params = { command: process.execPath, args: [...NODE_ARGS, server, text], cwd: SRC };
  const updates: string[] = [];
  if (client === 'v1') {
    const sdk = new ClientV1({ name: 'stdio-test', version: '1.0.0' });
    sdk.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    await sdk.connect(new StdioV1(params));
    return { client: sdk as unknown as StdioSession['client'], updates };
  }
  const sdk = new ClientV2({ name: 'stdio-test', version: '1.0.0' });
  sdk.setNotificationHandler('notifications/resources/updated', (notification) => {
    updates.push(notification.params.uri);
  });
  await sdk.connect(new StdioV2(params));
  return { client: sdk as unknown as StdioSession['client'], updates };
}

const PAIRS = [
  { client: 'v1', server: 'v1' },
  { client: 'v2', server: 'v2' },
  { client: 'v1', server: 'v2' },
  { client: 'v2', server: 'v1' },
] as const;

// Each test starts its own client and server processes and only waits on them, so they run at
// once: the second core works while one test waits.
describe.concurrent.each(PAIRS)(
  'MCP over stdio: $client client, $server server',
  ({ client, server }) => {
    it('lists, calls, refuses, notifies, reads and prompts across processes', async () => {
      const { client: mcp, updates } = await connect(client, server);
      try {
        const { tools } = await mcp.listTools();
        expect(
          tools.find((tool) => tool.name === 'planning_clear_plan')?.annotations,
        ).toMatchObject({
          destructiveHint: true,
          idempotentHint: true,
        });
        await mcp.subscribeResource({ uri: 'plankit://plan' });
        const refused = await mcp.callTool({
          name: 'planning_add_step',
          arguments: { steps: [{ title: 'x' }] },
        });
        expect(refused).toEqual({
          content: [
            { type: 'text', text: 'Tool validation failed: No plan is currently initialised.' },
          ],
          isError: true,
        });
        const setup = await mcp.callTool({
          name: 'planning_setup_plan',
          arguments: { objective: 'Ship', initial_steps: [{ title: 'Draft' }] },
        });
        expect(setup.structuredContent).toEqual({
          objective: 'Ship',
          initial_steps: [{ title: 'Draft', details: null }],
        });
        // The notification is written before the response, on the same pipe.
        expect(updates).toEqual(['plankit://plan']);
        const read = await mcp.readResource({ uri: 'plankit://plan' });
        expect(JSON.parse(read.contents[0]?.text ?? '')).toMatchObject({
          objective: 'Ship',
          steps: [{ step_id: 'S001', title: 'Draft', status: 'pending' }],
        });
        const prompt = await mcp.getPrompt({ name: 'planning.tools' });
        expect(prompt.messages[0]?.content.text).toMatch(/^## Planning Tools\n\n/);
      } finally {
        await mcp.close();
      }
    }, 60_000);
  },
);

// A plan in any language over the pipe: long enough (over 64 KiB of UTF-8 in one message) that
// the pipe delivers it in chunks, which may split a character's bytes.
describe.concurrent.each(['v1', 'v2'] as const)(
  'MCP over stdio in Unicode mode: %s client and server',
  (major) => {
    it('carries a Japanese plan through tools/call, resources/read and the plan view unchanged', async () => {
      const { client: mcp } = await connect(major, major, 'unicode');
      try {
        const long = Array.from(
          { length: 160 },
          (_, index) => `${'翻訳を確認する🚀'.repeat(15)}${index}`,
        );
        const titles = [...UNICODE_TITLES, ...long];
        const setup = await mcp.callTool({
          name: 'planning_setup_plan',
          arguments: {
            objective: UNICODE_OBJECTIVE,
            initial_steps: titles.map((title) => ({ title })),
          },
        });
        expect(setup.isError, setup.content[0]?.text).toBeUndefined();
        const read = await mcp.readResource({ uri: 'plankit://plan' });
        const text = read.contents[0]?.text ?? '';
        expect(Buffer.byteLength(text, 'utf8')).toBeGreaterThan(64 * 1024);
        expect(read.contents[0]).toMatchObject({ mimeType: 'application/json' });
        const plan = JSON.parse(text) as { objective: string; steps: { title: string }[] };
        expect(plan.objective).toBe(UNICODE_OBJECTIVE);
        expect(plan.steps.map((step) => step.title)).toEqual(titles);
        const view = await mcp.readResource({ uri: 'plankit://plan/view' });
        const parsed = parsePlanView(JSON.parse(view.contents[0]?.text ?? ''));
        expect(parsed.ok && parsed.value.steps.map((step) => step.title)).toEqual(titles);
        const shown = await mcp.callTool({ name: 'planning_read_plan', arguments: {} });
        for (const title of titles) expect(shown.content[0]?.text).toContain(title);
        const refused = await mcp.callTool({
          name: 'planning_update_step',
          arguments: { step_id: 'S001', title: 'abc\u202Etxt.exe' },
        });
        expect(refused.isError).toBe(true);
        expect(refused.content[0]?.text).toMatch(/U\+202E/);
      } finally {
        await mcp.close();
      }
    }, 60_000);
  },
);

// The Inspector CLI reads its own package.json from `../package.json` relative to the working
// directory (a bug of 1.0.3), so it runs from src, whose parent holds a package.json.
async function inspect(server: 'v1' | 'v2', ...method: string[]): Promise<unknown> {
  const { stdout } = await run(
    INSPECTOR,
    ['--cli', process.execPath, ...NODE_ARGS, server, ...method],
    { cwd: SRC, timeout: 60_000 },
  );
  return JSON.parse(stdout.slice(stdout.indexOf('{')));
}

describe.concurrent.each(['v1', 'v2'] as const)(
  'MCP Inspector CLI against the %s stdio server',
  (server) => {
    it('lists the tools with annotations and output schemas, and the prompt and resource', async () => {
      // Each run is its own client and server process; they mostly wait, so run them together.
      const [listed, resource, prompt] = (await Promise.all([
        inspect(server, '--method', 'tools/list'),
        inspect(server, '--method', 'resources/read', '--uri', 'plankit://plan'),
        inspect(server, '--method', 'prompts/get', '--prompt-name', 'planning.tools'),
      ])) as [
        { tools: { name: string; annotations: unknown; outputSchema: unknown }[] },
        unknown,
        { messages: { role: string; content: { text: string } }[] },
      ];
      expect(listed.tools.map((tool) => tool.name)).toEqual([
        'planning_setup_plan',
        'planning_add_step',
        'planning_update_step',
        'planning_mark_step',
        'planning_clear_plan',
        'planning_read_plan',
      ]);
      expect(listed.tools[5]).toMatchObject({
        annotations: { readOnlyHint: true },
        outputSchema: { type: 'object', required: ['objective', 'status', 'steps'] },
      });
      expect(resource).toEqual({
        contents: [{ uri: 'plankit://plan', mimeType: 'application/json', text: 'null' }],
      });
      expect(prompt.messages[0]).toMatchObject({ role: 'user' });
      expect(prompt.messages[0]?.content.text).toContain('planning_setup_plan');
    }, 120_000);

    it('calls a tool, and gets a refusal as an isError result', async () => {
      const [accepted, refused] = await Promise.all([
        inspect(
          server,
          '--method',
          'tools/call',
          '--tool-name',
          'planning_setup_plan',
          '--tool-arg',
          'objective=Ship',
        ),
        inspect(
          server,
          '--method',
          'tools/call',
          '--tool-name',
          'planning_mark_step',
          '--tool-arg',
          'step_id=S001',
          'status=done',
        ),
      ]);
      expect(accepted).toEqual({
        content: [{ type: 'text', text: 'Plan initialised with 0 steps.' }],
        structuredContent: { objective: 'Ship', initial_steps: [] },
      });
      expect(refused).toEqual({
        content: [
          { type: 'text', text: 'Tool validation failed: No plan is currently initialised.' },
        ],
        isError: true,
      });
    }, 120_000);
  },
);
