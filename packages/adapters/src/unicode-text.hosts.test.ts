import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { type AnyTool, createPlanningTools, PlankitError, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from './anthropic/create-anthropic-toolset.ts';
import { registerClaudeAgentTools } from './claude-agent-sdk/register-claude-agent-tools.ts';
import { toLangChainTools } from './langchain/to-langchain-tools.ts';
import { registerMcpTools as registerV1 } from './mcp/register-mcp-tools.ts';
import { registerMcpTools as registerV2 } from './mcp/v2/register-mcp-tools.ts';
import { createOpenAIToolset } from './openai/create-openai-toolset.ts';
import { toOpenAIAgentsTools } from './openai-agents/to-openai-agents-tools.ts';
import { claudeSdk, HOSTS } from './testing/host-runs.ts';
import { workUnicodePlan } from './testing/unicode-plan-case.ts';

// A Japanese plan through every adapter, against the real host packages: the adapters take
// the tools as `createPlanningTools(session, { text: 'unicode' })` built them, and carry their
// text both ways unchanged (ai@7 is in unicode-text.hosts.v7.test.ts).

describe('a plan in any language through every adapter (text: unicode)', () => {
  for (const [host, run] of Object.entries(HOSTS)) {
    const absent = host.startsWith('Claude Agent SDK') && claudeSdk === undefined;
    it.skipIf(absent)(`through ${host}`, async () => {
      await workUnicodePlan(run, host !== 'core');
    });
  }
});

describe('the schemas each adapter advertises are those of the tools’ mode', () => {
  // What each host sends the model for the tools: ASCII-mode tools describe their text as
  // ASCII, Unicode-mode tools do not, whichever adapter carries them.
  const advertised: Record<string, (tools: readonly AnyTool[]) => Promise<unknown>> = {
    'OpenAI Chat Completions': async (tools) => createOpenAIToolset(tools).chatTools,
    'OpenAI Responses': async (tools) => createOpenAIToolset(tools).responsesTools,
    Anthropic: async (tools) => createAnthropicToolset(tools).tools,
    'AI SDK': async (tools) =>
      Object.values(toAISDKTools(tools, { session: new Session() })).map(
        (tool) => (tool.inputSchema as { jsonSchema: unknown }).jsonSchema,
      ),
    'LangChain tools': async (tools) =>
      toLangChainTools(tools, { session: new Session() }).map((tool) => convertToOpenAITool(tool)),
    'MCP v1': async (tools) => {
      const server = new McpServerV1({ name: 't', version: '1' });
      registerV1(server, tools, { session: new Session() });
      const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
      await server.connect(serverSide);
      const client = new ClientV1({ name: 'c', version: '1' });
      await client.connect(clientSide);
      try {
        // The input schemas and the output schemas (the tools' result types).
        return (await client.listTools()).tools.map((tool) => [
          tool.inputSchema,
          tool.outputSchema,
        ]);
      } finally {
        await client.close();
        await server.close();
      }
    },
  };

  it.each(Object.entries(advertised))('%s', async (_host, list) => {
    const text = async (mode: 'ascii' | 'unicode') =>
      JSON.stringify(await list(createPlanningTools(new Session(), { text: mode })));
    const ascii = await text('ascii');
    const unicode = await text('unicode');
    expect(ascii).toContain('1-160 ASCII characters');
    expect(unicode).not.toContain('ASCII');
    expect(unicode).toContain('1-160 characters');
  });
});

describe('the text mode is the tools’ own', () => {
  const session = new Session();
  const tools: readonly AnyTool[] = createPlanningTools(session, { text: 'unicode' });
  const text = 'unicode';
  const adapters: Record<string, () => unknown> = {
    createOpenAIToolset: () => createOpenAIToolset(tools, { text } as never),
    createAnthropicToolset: () => createAnthropicToolset(tools, { text } as never),
    toAISDKTools: () => toAISDKTools(tools, { session, text } as never),
    toLangChainTools: () => toLangChainTools(tools, { session, text } as never),
    toOpenAIAgentsTools: () => toOpenAIAgentsTools(tools, { session, text } as never),
    'registerMcpTools (v1)': () =>
      registerV1(new McpServerV1({ name: 't', version: '1' }), tools, { session, text } as never),
    'registerMcpTools (v2)': () =>
      registerV2(new McpServerV2({ name: 't', version: '1' }), tools, { session, text } as never),
    ...(claudeSdk === undefined
      ? {}
      : {
          registerClaudeAgentTools: () =>
            registerClaudeAgentTools(claudeSdk?.createSdkMcpServer({ name: 't' }) as never, tools, {
              session,
              text,
            } as never),
        }),
  };

  it.each(Object.entries(adapters))(
    '%s refuses a text option, pointing at createPlanningTools',
    (_name, build) => {
      let thrown: unknown;
      try {
        build();
      } catch (error) {
        thrown = error;
      }
      expect(PlankitError.isInstance(thrown)).toBe(true);
      expect((thrown as Error).message).toMatch(
        /options\.text is not an option; the text mode is the tools' own: createPlanningTools\(session, \{ text \}\)\./,
      );
    },
  );
});
