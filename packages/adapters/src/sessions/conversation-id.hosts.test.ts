import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { invokeTool } from '@plankit/core';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import type { AISDKContext } from '../ai-sdk/ai-sdk-context.ts';
import { toAISDKTools } from '../ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from '../anthropic/create-anthropic-toolset.ts';
import {
  type ClaudeAgentSdkServer,
  registerClaudeAgentTools,
} from '../claude-agent-sdk/register-claude-agent-tools.ts';
import type { LangChainContext } from '../langchain/langchain-context.ts';
import { toLangChainTools } from '../langchain/to-langchain-tools.ts';
import { MCP_PLAN_ID_META_KEY, type McpContext } from '../mcp/mcp-context.ts';
import { registerMcpTools as registerMcpToolsV1 } from '../mcp/register-mcp-tools.ts';
import { registerMcpTools as registerMcpToolsV2 } from '../mcp/v2/register-mcp-tools.ts';
import { createOpenAIToolset } from '../openai/create-openai-toolset.ts';
import { FileStore } from '../persistence/stores/file-store.ts';
import { HOST_IDS } from '../persistence/stores/testing/host-ids.ts';
import { createSessionPool } from './create-session-pool.ts';
import { cleanup, ok, planOf, TOOLS, tempDirectory } from './testing/pool-helpers.ts';

// Every id a host generates, through each host's resolver, into a FileStore (the store whose
// keys are the hardest: folder names), then read back by a new pool on a new store instance.

// The real Claude Agent SDK, loaded by a name the type checker does not resolve, as its own
// tests load it (it is a devDependency of the workspace root only).
const CLAUDE_SDK = '@anthropic-ai/claude-agent-sdk';
const claudeSdk = (await import(/* @vite-ignore */ CLAUDE_SDK).catch(() => undefined)) as
  | { createSdkMcpServer(options: { name: string; version: string }): ClaudeAgentSdkServer }
  | undefined;

let closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
  await cleanup();
});

const setup = (objective: string) => ({
  objective,
  initial_steps: [{ title: `${objective}: first` }],
});

/** A pool on a FileStore in a fresh folder, and a way to read each id's plan after a restart. */
async function filePool(ids: readonly string[] = HOST_IDS) {
  const directory = await tempDirectory();
  const store = new FileStore({ directory });
  const pool = createSessionPool({ store, max: 4 });
  closers.push(
    () => store.close(),
    () => pool.close(),
  );
  return {
    pool,
    /** Closes the pool and store, then reads every id's objective through fresh ones. */
    async reopen(): Promise<Map<string, string | undefined>> {
      ok(await pool.close());
      await store.close();
      const again = new FileStore({ directory });
      const fresh = createSessionPool({ store: again });
      closers.push(
        () => again.close(),
        () => fresh.close(),
      );
      expect(ok(await again.list())).toEqual([...ids].sort(byCodePoint));
      const objectives = new Map<string, string | undefined>();
      for (const id of ids) objectives.set(id, planOf(ok(await fresh.get(id)))?.objective);
      return objectives;
    },
  };
}

function byCodePoint(a: string, b: string): number {
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The objective of conversation `id`: its index (objectives are ASCII; ids need not be). */
const objectiveOf = (id: string): string => `Ship ${HOST_IDS.indexOf(id)}`;

/** Every id's objective is its own: each conversation got its own plan, and kept it. */
function expectOwnPlans(objectives: Map<string, string | undefined>): void {
  expect(objectives.size).toBeGreaterThan(0);
  for (const [id] of objectives) expect(objectives.get(id), id).toBe(objectiveOf(id));
}

describe('conversation ids a host generates, through every host resolver and a restart', () => {
  it('the pool itself: get and run', async () => {
    const { pool, reopen } = await filePool();
    for (const id of HOST_IDS) {
      ok(
        await pool.run(id, (session) =>
          invokeTool(TOOLS.planning_setup_plan, setup(objectiveOf(id)), { session }),
        ),
      );
    }
    expectOwnPlans(await reopen());
  });

  it('OpenAI and Anthropic toolsets: the run key', async () => {
    const { pool, reopen } = await filePool();
    const session = pool.resolver((context: { key: string }) => context.key);
    const openai = createOpenAIToolset(TOOLS);
    const anthropic = createAnthropicToolset(TOOLS);
    for (const [i, id] of HOST_IDS.entries()) {
      const args = setup(objectiveOf(id));
      if (i % 2 === 0) {
        const [record] = await openai.runChatToolCalls(
          [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'planning_setup_plan', arguments: JSON.stringify(args) },
            },
          ],
          { session, key: id },
        );
        expect(record?.result.success, id).toBe(true);
      } else {
        const [record] = await anthropic.runToolUses(
          [{ type: 'tool_use', id: 'toolu_1', name: 'planning_setup_plan', input: args }],
          { session, key: id },
        );
        expect(record?.block.is_error, id).toBeUndefined();
      }
    }
    expectOwnPlans(await reopen());
  });

  it('MCP v1 (the transport session id) and v2 (the plan id in _meta)', async () => {
    const { pool, reopen } = await filePool();
    for (const [i, id] of HOST_IDS.entries()) {
      let result: { isError?: unknown };
      const args = { name: 'planning_setup_plan', arguments: setup(objectiveOf(id)) };
      if (i % 2 === 0) {
        const server = new McpServerV1({ name: 'plankit-test', version: '1.0.0' });
        registerMcpToolsV1(server, TOOLS, {
          session: pool.resolver((context: McpContext) => context.sessionId),
        });
        const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
        serverSide.sessionId = id;
        await server.connect(serverSide);
        const client = new ClientV1({ name: 'test-client', version: '1.0.0' });
        await client.connect(clientSide);
        result = (await client.callTool(args)) as { isError?: unknown };
        await client.close();
        await server.close();
      } else {
        const server = new McpServerV2({ name: 'plankit-test', version: '1.0.0' });
        registerMcpToolsV2(server, TOOLS, {
          session: pool.resolver((context: McpContext) => context.planId),
        });
        const [serverSide, clientSide] = InMemoryV2.createLinkedPair();
        await server.connect(serverSide);
        const client = new ClientV2({ name: 'test-client', version: '1.0.0' });
        await client.connect(clientSide);
        result = await client.callTool({ ...args, _meta: { [MCP_PLAN_ID_META_KEY]: id } } as never);
        await client.close();
        await server.close();
      }
      expect(result.isError, id).toBeFalsy();
    }
    expectOwnPlans(await reopen());
  });

  it('LangChain in a LangGraph ToolNode: the thread id', async () => {
    // LangGraph's MemorySaver refuses `__proto__` as a thread id itself.
    const ids = HOST_IDS.filter((id) => id !== '__proto__');
    const { pool, reopen } = await filePool(ids);
    const tools = toLangChainTools(TOOLS, {
      session: pool.resolver((context: LangChainContext) => context.threadId),
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('tools', new ToolNode(tools))
      .addEdge('__start__', 'tools')
      .compile({ checkpointer: new MemorySaver() });
    for (const id of ids) {
      const call = new AIMessage({
        content: '',
        tool_calls: [
          {
            id: 't1',
            name: 'planning_setup_plan',
            args: setup(objectiveOf(id)),
            type: 'tool_call',
          },
        ],
      });
      const result = await graph.invoke({ messages: [call] }, { configurable: { thread_id: id } });
      const reply = (result.messages as BaseMessage[])
        .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
        .at(-1);
      expect(reply?.status, id).not.toBe('error');
    }
    expectOwnPlans(await reopen());
  });

  it('AI SDK generateText: the chat id in experimental_context', async () => {
    const { pool, reopen } = await filePool();
    const tools = toAISDKTools(TOOLS, {
      session: pool.resolver(({ context }: AISDKContext<{ chatId: string }>) => context?.chatId),
    });
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    for (const id of HOST_IDS) {
      let step = 0;
      const model = new MockLanguageModelV3({
        doGenerate: async () => ({
          content:
            step++ === 0
              ? [
                  {
                    type: 'tool-call' as const,
                    toolCallId: 'c1',
                    toolName: 'planning_setup_plan',
                    input: JSON.stringify(setup(objectiveOf(id))),
                  },
                ]
              : [{ type: 'text' as const, text: 'Done.' }],
          finishReason: { unified: step === 1 ? 'tool-calls' : 'stop', raw: undefined },
          usage,
          warnings: [],
        }),
      });
      const result = await generateText({
        model,
        prompt: 'Plan.',
        tools,
        experimental_context: { chatId: id },
        stopWhen: stepCountIs(3),
      });
      const output = result.steps[0]?.content.find((part) => part.type === 'tool-result');
      expect(output, id).toBeDefined();
    }
    expectOwnPlans(await reopen());
  });

  it.skipIf(claudeSdk === undefined)('Claude Agent SDK: the server key', async () => {
    const { pool, reopen } = await filePool();
    const session = pool.resolver((context: { key: string }) => context.key);
    for (const id of HOST_IDS) {
      const server = (claudeSdk as NonNullable<typeof claudeSdk>).createSdkMcpServer({
        name: 'planning',
        version: '1.0.0',
      });
      registerClaudeAgentTools(server, TOOLS, { session, key: id });
      const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
      await server.instance.connect(serverSide);
      const client = new ClientV1({ name: 'claude-code-stand-in', version: '1.0.0' });
      await client.connect(clientSide);
      const result = await client.callTool({
        name: 'planning_setup_plan',
        arguments: setup(objectiveOf(id)),
      });
      await client.close();
      await server.instance.close();
      expect(result.isError, id).toBeFalsy();
    }
    expectOwnPlans(await reopen());
  });
});
