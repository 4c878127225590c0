import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { toAISDKTools } from '@plankit/adapters/ai-sdk';
import { createAnthropicToolset } from '@plankit/adapters/anthropic';
import { toLangChainTools } from '@plankit/adapters/langchain';
import { registerMcpTools } from '@plankit/adapters/mcp';
import { createOpenAIToolset } from '@plankit/adapters/openai';
import { createPlanningTools, type PlanningTools, Session } from '@plankit/core';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';
import { bareInvoke, MARK, NOW, type Prepared, prepare } from './planned-session.ts';

const convert = (
  name: string,
  build: (tools: PlanningTools, session: Session) => unknown,
): BenchCase => ({
  name: `convert 6 tools: ${name}`,
  what: `fresh tools converted to ${name} (schemas computed, no cache) vs one bare invokeTool`,
  plankit: (): BenchSide => {
    const session = new Session({ clock: () => NOW });
    return { run: () => build(createPlanningTools(session), session) };
  },
  baseline: bareInvoke,
});

const roundTrip = (
  name: string,
  side: (prepared: Prepared) => Promise<() => Promise<unknown>>,
): BenchCase => ({
  name: `round trip: ${name}`,
  what: `parse -> invoke -> format through ${name} vs bare invokeTool`,
  plankit: async (): Promise<BenchSide> => {
    const prepared = await prepare();
    const run = await side(prepared);
    return { reset: prepared.reset, run };
  },
  baseline: bareInvoke,
});

const args = JSON.stringify(MARK);

const cases: BenchCase[] = [
  convert('OpenAI (chat + responses, strict)', (tools) =>
    createOpenAIToolset(tools, { strict: true }),
  ),
  convert('Anthropic', (tools) => createAnthropicToolset(tools)),
  convert('AI SDK', (tools, session) => toAISDKTools(tools, { session })),
  convert('LangChain', (tools, session) => toLangChainTools(tools, { session })),
  roundTrip('OpenAI chat', async ({ session, tools }) => {
    const toolset = createOpenAIToolset(tools, { strict: true });
    const calls = [
      {
        id: 'c1',
        type: 'function' as const,
        function: { name: 'planning_mark_step', arguments: args },
      },
    ];
    return () => toolset.runChatToolCalls(calls, { session, now: NOW });
  }),
  roundTrip('OpenAI responses', async ({ session, tools }) => {
    const toolset = createOpenAIToolset(tools);
    const output = [
      { type: 'function_call', call_id: 'c1', name: 'planning_mark_step', arguments: args },
    ];
    return () => toolset.runResponsesFunctionCalls(output, { session, now: NOW });
  }),
  roundTrip('Anthropic', async ({ session, tools }) => {
    const toolset = createAnthropicToolset(tools);
    const content = [{ type: 'tool_use', id: 't1', name: 'planning_mark_step', input: MARK }];
    return () => toolset.runToolUses(content, { session, now: NOW });
  }),
  roundTrip('AI SDK', async ({ session, tools }) => {
    const mark = toAISDKTools(tools, { session, clock: () => NOW })['planning_mark_step'];
    const { execute, toModelOutput } = mark ?? {};
    if (execute === undefined || toModelOutput === undefined) throw new Error('no AI SDK tool');
    return async () => {
      const output = await execute(MARK, { toolCallId: 'a1', messages: [] });
      const options = { toolCallId: 'a1', input: MARK, output: output as never };
      return toModelOutput(options);
    };
  }),
  roundTrip('LangChain', async ({ session, tools }) => {
    const mark = toLangChainTools(tools, { session, clock: () => NOW }).find(
      (tool) => tool.name === 'planning_mark_step',
    );
    if (mark === undefined) throw new Error('no LangChain tool');
    return () =>
      mark.invoke({ id: 'l1', name: 'planning_mark_step', args: MARK, type: 'tool_call' });
  }),
  roundTrip('MCP (in-memory client and server)', async ({ session, tools }) => {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    registerMcpTools(server, tools, { session, clock: () => NOW });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'bench-client', version: '1.0.0' });
    await client.connect(clientSide);
    return () => client.callTool({ name: 'planning_mark_step', arguments: MARK });
  }),
];

/** The adapters' benchmarks: format conversion and host round trips next to the bare invokeTool. */
export const suite: BenchSuite = { name: '@plankit/adapters host formats', cases };
