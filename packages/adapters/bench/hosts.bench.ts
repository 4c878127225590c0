import { AIMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { announceToolCalls, callTool } from '@plankit/adapters';
import { toAISDKTools } from '@plankit/adapters/ai-sdk';
import { toLangChainTools } from '@plankit/adapters/langchain';
import { registerMcpTools } from '@plankit/adapters/mcp-v2';
import { generateText as generateTextV6 } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { generateText as generateTextV7 } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';
import { bareInvoke, MARK, NOW, prepare } from './planned-session.ts';

// Each host's own loop around one planning call, per supported major, next to the bare
// invokeTool it wraps. The OpenAI and Anthropic adapters load no SDK at run time, so their rows
// in adapters.bench.ts hold for every major.

const hostCase = (name: string, what: string, plankit: () => Promise<BenchSide>): BenchCase => ({
  name: `round trip: ${name}`,
  what: `${what} vs bare invokeTool`,
  plankit,
  baseline: bareInvoke,
});

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const markCall = {
  content: [
    {
      type: 'tool-call' as const,
      toolCallId: 'call_0',
      toolName: 'planning_mark_step',
      input: JSON.stringify(MARK),
    },
  ],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
};

function expectOneResult<T extends { steps: readonly { toolResults: readonly unknown[] }[] }>(
  result: T,
): T {
  if (result.steps[0]?.toolResults.length !== 1) throw new Error('the call did not succeed');
  return result;
}

const aiSdkV6 = async (): Promise<BenchSide> => {
  const { session, tools, reset } = await prepare();
  const aiTools = toAISDKTools(tools, { session, clock: () => NOW });
  const model = new MockLanguageModelV3({ doGenerate: async () => markCall });
  return {
    reset: () => {
      model.doGenerateCalls.length = 0;
      reset();
    },
    run: async () =>
      expectOneResult(await generateTextV6({ model, prompt: 'Mark.', tools: aiTools })),
  };
};

const aiSdkV7 = async (): Promise<BenchSide> => {
  const { session, tools, reset } = await prepare();
  // ai 7 runs the same tool objects the adapter builds.
  const aiTools = toAISDKTools(tools, { session, clock: () => NOW }) as unknown as NonNullable<
    Parameters<typeof generateTextV7>[0]['tools']
  >;
  const model = new MockLanguageModelV4({ doGenerate: async () => markCall });
  return {
    reset: () => {
      model.doGenerateCalls.length = 0;
      reset();
    },
    run: async () =>
      expectOneResult(await generateTextV7({ model, prompt: 'Mark.', tools: aiTools })),
  };
};

const langGraphToolNode = async (): Promise<BenchSide> => {
  const { session, tools, reset } = await prepare();
  const node = new ToolNode(toLangChainTools(tools, { session, clock: () => NOW }));
  let turn = 0;
  return {
    reset,
    run: async () => {
      turn += 1;
      const message = new AIMessage({
        id: `m${turn}`,
        content: '',
        tool_calls: [
          { id: `c${turn}`, name: 'planning_mark_step', args: { ...MARK }, type: 'tool_call' },
        ],
      });
      const { messages } = (await node.invoke({ messages: [message] })) as {
        messages: { status?: string }[];
      };
      if (messages[0]?.status === 'error') throw new Error('the call was refused');
      return messages;
    },
  };
};

const mcpV2 = async (): Promise<BenchSide> => {
  const { session, tools, reset } = await prepare();
  const server = new McpServerV2({ name: 'bench', version: '1.0.0' });
  registerMcpTools(server, tools, { session, clock: () => NOW });
  const [serverSide, clientSide] = InMemoryV2.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV2({ name: 'bench-client', version: '1.0.0' });
  await client.connect(clientSide);
  // The client checks structuredContent against the listed outputSchema, as a host would.
  await client.listTools();
  return {
    reset,
    run: async () => {
      const result = await client.callTool({ name: 'planning_mark_step', arguments: { ...MARK } });
      if (result.isError === true) throw new Error('the call was refused');
      return result;
    },
  };
};

// Model order when the calls of a turn already arrive in order: announce + callTool with its
// place, next to callTool alone. Each sample is a new turn, as each model response is.
const ordered = async (): Promise<BenchSide> => {
  const { session, tools, reset } = await prepare();
  let turn = 0;
  return {
    reset,
    run: async () => {
      turn += 1;
      const id = `call_${turn}`;
      announceToolCalls(session, `turn-${turn}`, [id]);
      const { result } = await callTool(
        tools,
        { name: 'planning_mark_step', arguments: MARK },
        { session, now: NOW, order: { turn: `turn-${turn}`, id } },
      );
      if (!result.success) throw result.error;
      return result;
    },
  };
};

const arrival = async (): Promise<BenchSide> => {
  const { session, tools, reset } = await prepare();
  return {
    reset,
    run: async () => {
      const { result } = await callTool(
        tools,
        { name: 'planning_mark_step', arguments: MARK },
        { session, now: NOW },
      );
      if (!result.success) throw result.error;
      return result;
    },
  };
};

const cases: BenchCase[] = [
  hostCase('AI SDK generateText (ai 6)', 'one step, one call, MockLanguageModelV3', aiSdkV6),
  hostCase('AI SDK generateText (ai 7)', 'one step, one call, MockLanguageModelV4', aiSdkV7),
  hostCase(
    'LangGraph ToolNode (@langchain/langgraph 1)',
    'one AIMessage, one call',
    langGraphToolNode,
  ),
  hostCase(
    'MCP v2 (in-memory client and server)',
    'tools/call through @modelcontextprotocol/client and /server 2',
    mcpV2,
  ),
  {
    name: 'model order: calls already in order',
    what: 'announceToolCalls + callTool with its place vs callTool in arrival order',
    maxExtraMicros: 2,
    plankit: ordered,
    baseline: arrival,
  },
];

/** Host round trips per supported major, and what model order costs. */
export const suite: BenchSuite = { name: '@plankit/adapters hosts', cases };
