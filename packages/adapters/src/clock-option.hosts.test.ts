import { createSdkMcpServer } from '@anthropic-ai/claude-agent-sdk';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import type { RunContext } from '@openai/agents';
import { type Clock, defineDataType, defineTool, PlankitError, Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { registerClaudeAgentTools } from './claude-agent-sdk/register-claude-agent-tools.ts';
import { toLangChainTools } from './langchain/to-langchain-tools.ts';
import { registerMcpTools as registerMcpToolsV1 } from './mcp/register-mcp-tools.ts';
import { registerMcpTools as registerMcpToolsV2 } from './mcp/v2/register-mcp-tools.ts';
import { toOpenAIAgentsTools } from './openai-agents/to-openai-agents-tools.ts';

// Every host adapter that reads the time once per call takes it as `clock`, the name of every
// plankit time source; `now`, which is only ever a number, is refused with a pointer to it.

const Pinged = defineDataType('test.pinged', z.strictObject({ n: z.number() }));
const ping = defineTool({
  name: 'ping',
  description: 'Ping.',
  parameters: z.strictObject({ n: z.number() }),
  resultType: Pinged,
  handler: ({ n }) => ({ message: `pong ${n}`, value: { n } }),
});

/** The `at` of every logged call: the moment the adapter passed to `invokeTool`. */
const loggedAt = (session: Session): unknown[] =>
  ((session.snapshot().slices['plankit.ToolCall'] ?? []) as { at: number }[]).map(
    (call) => call.at,
  );

type TimeOption = { clock: Clock } | { now: Clock } | { clock: Clock; clok: Clock };

interface Host {
  readonly name: string;
  /** The code of the error that refuses bad time options. */
  readonly code: 'argument_invalid' | 'tools_invalid';
  /** Builds the host's tools on `session` and returns a function making one call of `ping`. */
  build(session: Session, time: TimeOption): Promise<(n: number) => Promise<string>>;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function mcpCaller(
  server: { connect(transport: never): Promise<void>; close(): Promise<void> },
  client: {
    connect(transport: never): Promise<void>;
    close(): Promise<void>;
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  },
  pair: readonly [unknown, unknown],
): Promise<(n: number) => Promise<string>> {
  await server.connect(pair[0] as never);
  await client.connect(pair[1] as never);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return async (n) => {
    const result = (await client.callTool({ name: 'ping', arguments: { n } })) as {
      content: { text: string }[];
    };
    return result.content[0]?.text ?? '';
  };
}

const hosts: Host[] = [
  {
    name: 'toAISDKTools',
    code: 'argument_invalid',
    async build(session, time) {
      const tool = toAISDKTools([ping], { session, ...time })['ping'];
      return async (n) => {
        const call = { toolCallId: `call-${n}`, messages: [] };
        await tool?.onInputAvailable(call);
        return (await tool?.execute({ n }, call))?.content ?? '';
      };
    },
  },
  {
    name: 'toLangChainTools',
    code: 'argument_invalid',
    async build(session, time) {
      const [tool] = toLangChainTools([ping], { session, ...time });
      return async (n) => String(await tool?.invoke({ n }));
    },
  },
  {
    name: 'toOpenAIAgentsTools',
    code: 'argument_invalid',
    async build(session, time) {
      const [tool] = toOpenAIAgentsTools([ping], { session, ...time });
      const invoke = (tool as unknown as { invoke: (c: unknown, i: string) => Promise<unknown> })
        .invoke;
      return async (n) =>
        String(await invoke({ context: {} } as RunContext, JSON.stringify({ n })));
    },
  },
  {
    name: 'registerMcpTools (v1)',
    code: 'tools_invalid',
    async build(session, time) {
      const server = new McpServerV1({ name: 'clock', version: '1.0.0' });
      registerMcpToolsV1(server, [ping], { session, ...time });
      const client = new ClientV1({ name: 'test-client', version: '1.0.0' });
      return mcpCaller(server as never, client as never, InMemoryV1.createLinkedPair());
    },
  },
  {
    name: 'registerMcpTools (v2)',
    code: 'tools_invalid',
    async build(session, time) {
      const server = new McpServerV2({ name: 'clock', version: '1.0.0' });
      registerMcpToolsV2(server, [ping], { session, ...time });
      const client = new ClientV2({ name: 'test-client', version: '1.0.0' });
      return mcpCaller(server as never, client as never, InMemoryV2.createLinkedPair());
    },
  },
  {
    name: 'registerClaudeAgentTools',
    code: 'tools_invalid',
    async build(session, time) {
      const server = createSdkMcpServer({ name: 'clock', version: '1.0.0' });
      registerClaudeAgentTools(server as never, [ping], { session, ...time });
      const client = new ClientV1({ name: 'claude-code-stand-in', version: '1.0.0' });
      return mcpCaller(server.instance as never, client as never, InMemoryV1.createLinkedPair());
    },
  },
];

/** A clock that reads 1000, 2000, ...: each reading shows in one logged call. */
function ticking(): Clock {
  let reads = 0;
  return () => {
    reads += 1;
    return reads * 1000;
  };
}

describe.each(hosts)('$name', (host) => {
  it('reads options.clock once per call; the session keeps its own clock otherwise', async () => {
    const session = new Session({ clock: () => 7 });
    const call = await host.build(session, { clock: ticking() });
    expect(await call(1)).toBe('pong 1');
    expect(await call(2)).toBe('pong 2');
    expect(loggedAt(session)).toEqual([1000, 2000]);
  });

  it('refuses options.now, pointing at clock, when the tools are built', async () => {
    const session = new Session({ clock: () => 7 });
    const refused = host.build(session, { now: ticking() });
    await expect(refused).rejects.toThrow(
      /options\.now is not an option; a time source is options\.clock\./,
    );
    const error = await refused.catch((caught: unknown) => caught);
    expect(PlankitError.isInstance(error)).toBe(true);
    expect((error as PlankitError).code).toBe(host.code);
  });

  it('refuses an option it does not take when the tools are built', async () => {
    const session = new Session();
    const refused = host.build(session, { clock: ticking(), clok: ticking() });
    await expect(refused).rejects.toThrow(/options\.clok is not an option\./);
    const error = await refused.catch((caught: unknown) => caught);
    expect((error as PlankitError).code).toBe(host.code);
  });

  it('refuses a clock that is not a function when the tools are built', async () => {
    const session = new Session();
    await expect(host.build(session, { clock: 5 as unknown as Clock })).rejects.toThrow(
      /options\.clock must be a function returning epoch milliseconds\./,
    );
  });
});
