import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createPlanningTools, Session } from '@plankit/core';
import { parsePlanView } from '@plankit/core/plan-view';
import { afterEach, describe, expect, it } from 'vitest';
import { UNICODE_OBJECTIVE, UNICODE_TITLES } from '../testing/unicode-plan-case.ts';
import { registerMcpPlanResource } from './register-mcp-plan-resource.ts';
import { registerMcpTools } from './register-mcp-tools.ts';

// A plan in any language over MCP's Streamable HTTP transport, as a remote client reads it:
// every response body is UTF-8 (JSON by RFC 8259, server-sent events by their spec), holds the
// characters themselves (not \u escapes), and decodes back to the titles as set.

interface Served {
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

const closing: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function serve(enableJsonResponse: boolean) {
  const session = new Session();
  const server = new McpServer({ name: 'plankit-http', version: '1.0.0' });
  registerMcpTools(server, createPlanningTools(session, { text: 'unicode' }), { session });
  registerMcpPlanResource(server, { session });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    enableJsonResponse,
  });
  await server.connect(transport);
  const httpServer = http.createServer((req, res) => {
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  // Every response body as the client received it, bytes and media type.
  const reading: Promise<Served>[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method !== 'POST' || response.body === null) return response;
    const [mine, theirs] = response.body.tee();
    reading.push(
      new Response(mine).arrayBuffer().then((buffer) => ({
        contentType: response.headers.get('content-type') ?? '',
        bytes: new Uint8Array(buffer),
      })),
    );
    return new Response(theirs, response);
  };
  // The bodies with content (a notification's 202 has none), once each has been read whole.
  const served = async (): Promise<Served[]> =>
    (await Promise.all(reading)).filter((body) => body.bytes.length > 0);
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      fetch: recording,
    }),
  );
  closing.push(async () => {
    await client.close();
    await server.close();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  });
  return { client, served };
}

describe.each([
  ['server-sent events', false],
  ['JSON responses', true],
] as const)('MCP over Streamable HTTP in Unicode mode (%s)', (_mode, json) => {
  it('serves a Japanese plan as UTF-8, through tools/call, the plan resource and its view', async () => {
    const { client, served } = await serve(json);
    const setup = (await client.callTool({
      name: 'planning_setup_plan',
      arguments: {
        objective: UNICODE_OBJECTIVE,
        initial_steps: UNICODE_TITLES.map((title) => ({ title })),
      },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(setup.isError, setup.content[0]?.text).toBeUndefined();
    const textOf = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      const [content] = contents;
      return content !== undefined && 'text' in content ? content.text : '';
    };
    const plan = JSON.parse(await textOf('plankit://plan')) as { steps: { title: string }[] };
    expect(plan.steps.map((step) => step.title)).toEqual(UNICODE_TITLES);
    const parsed = parsePlanView(JSON.parse(await textOf('plankit://plan/view')));
    expect(parsed.ok && parsed.value.objective).toBe(UNICODE_OBJECTIVE);

    // The bytes on the wire: media types that are UTF-8 by definition, valid UTF-8, and the
    // characters themselves.
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    const bodies = (await served()).map((body) => utf8.decode(body.bytes));
    expect(new Set((await served()).map((body) => body.contentType.split(';')[0]))).toEqual(
      new Set([json ? 'application/json' : 'text/event-stream']),
    );
    const resource = bodies.find((body) => body.includes('plankit://plan"'));
    expect(resource).toBeDefined();
    for (const title of UNICODE_TITLES)
      expect(resource?.includes(JSON.stringify(title).slice(1, -1))).toBe(true);
    expect(resource).not.toMatch(/\\u[0-9a-fA-F]{4}/);
  }, 30_000);
});
