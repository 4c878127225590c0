import type { ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { Agent, Runner } from '@openai/agents';
import { type AnyTool, invokeTool } from '@plankit/core';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { expect } from 'vitest';
import { aiSdkHostRun } from '../ai-sdk/testing/ai-sdk-host-run.ts';
import { createAnthropicToolset } from '../anthropic/create-anthropic-toolset.ts';
import {
  type ClaudeAgentSdkServer,
  registerClaudeAgentTools,
} from '../claude-agent-sdk/register-claude-agent-tools.ts';
import { toLangChainTools } from '../langchain/to-langchain-tools.ts';
import { registerMcpTools as registerV1 } from '../mcp/register-mcp-tools.ts';
import { registerMcpTools as registerV2 } from '../mcp/v2/register-mcp-tools.ts';
import { createOpenAIToolset } from '../openai/create-openai-toolset.ts';
import { ScriptedModel } from '../openai-agents/testing/scripted-model.ts';
import { toOpenAIAgentsTools } from '../openai-agents/to-openai-agents-tools.ts';
import type { HostRun } from './plan-model-cases.ts';

// One planning call through each adapter, against the real host packages: the tools are
// advertised (strict where the host has strict mode: every plankit planning tool is strict by
// default) and the call comes back as the host gives it to the model. The tests that work a
// feature through every host (plan-model-options, unicode-text) share these runs.

const names = (tools: readonly AnyTool[]) => tools.map((tool) => tool.name);

async function mcpCall(
  client: {
    listTools(): Promise<{ tools: { name: string; inputSchema: unknown }[] }>;
    callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  },
  tools: readonly AnyTool[],
  call: { name: string; args: Record<string, unknown> },
) {
  const listed = await client.listTools();
  expect(listed.tools.map((tool) => tool.name)).toEqual(names(tools));
  for (const tool of listed.tools) expect(tool.inputSchema).toMatchObject({ type: 'object' });
  const result = (await client.callTool({ name: call.name, arguments: call.args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  return { error: result.isError === true, text: result.content[0]?.text ?? '' };
}

/** The Claude Agent SDK, loaded as its tests load it: an optional peer that may be absent. */
export const claudeSdk = (await import(/* @vite-ignore */ '@anthropic-ai/claude-agent-sdk').catch(
  () => undefined,
)) as
  | { createSdkMcpServer(options: { name: string; version?: string }): ClaudeAgentSdkServer }
  | undefined;

/** The runs by host name; the Claude Agent SDK run needs the optional peer ({@link claudeSdk}). */
export const HOSTS: Readonly<Record<string, HostRun>> = {
  // The baseline: plankit's own invokeTool, no host.
  core: async (tools, session, call) => {
    const tool = tools.find((t) => t.name === call.name) as AnyTool;
    const result = await invokeTool(tool, call.args, { session });
    return { error: !result.success, text: result.message };
  },
  'OpenAI Chat Completions': async (tools, session, call) => {
    const toolset = createOpenAIToolset(tools);
    expect(toolset.chatTools.map((tool) => [tool.function.name, tool.function.strict])).toEqual(
      tools.map((tool) => [tool.name, true]),
    );
    const [record] = await toolset.runChatToolCalls(
      [
        {
          id: 'c1',
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        },
      ],
      { session },
    );
    expect(record?.message).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
    return { error: record?.result.success !== true, text: String(record?.message.content) };
  },
  'OpenAI Responses': async (tools, session, call) => {
    const toolset = createOpenAIToolset(tools);
    expect(toolset.responsesTools.every((tool) => tool.strict === true)).toBe(true);
    const [record] = await toolset.runResponsesFunctionCalls(
      [
        {
          type: 'function_call',
          call_id: 'c1',
          name: call.name,
          arguments: JSON.stringify(call.args),
        },
      ],
      { session },
    );
    expect(record?.message).toMatchObject({ type: 'function_call_output', call_id: 'c1' });
    return { error: record?.result.success !== true, text: String(record?.message.output) };
  },
  Anthropic: async (tools, session, call) => {
    const toolset = createAnthropicToolset(tools);
    expect(toolset.tools.map((tool) => [tool.name, tool.strict])).toEqual(
      tools.map((tool) => [tool.name, true]),
    );
    const [record] = await toolset.runToolUses(
      [{ type: 'tool_use', id: 'tu1', name: call.name, input: call.args }],
      { session },
    );
    const block = record?.block;
    expect(block).toMatchObject({ type: 'tool_result', tool_use_id: 'tu1' });
    const content = block?.content;
    return {
      error: block?.is_error === true,
      text: typeof content === 'string' ? content : JSON.stringify(content),
    };
  },
  'AI SDK 6 (generateText)': aiSdkHostRun({
    generateText,
    stepCountIs,
    MockModel: MockLanguageModelV3,
  }),
  'LangChain tools': async (tools, session, call) => {
    const lcTools = toLangChainTools(tools, { session });
    for (const tool of lcTools)
      expect(convertToOpenAITool(tool).function.parameters).toMatchObject({ type: 'object' });
    const tool = lcTools.find((t) => t.name === call.name);
    const message = (await tool?.invoke({
      id: 'c1',
      name: call.name,
      args: call.args,
      type: 'tool_call',
    })) as ToolMessage;
    return { error: message.status === 'error', text: String(message.content) };
  },
  'MCP v1': async (tools, session, call) => {
    const server = new McpServerV1({ name: 'plankit-test', version: '1.0.0' });
    registerV1(server, tools, { session });
    const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV1({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      return await mcpCall(client as never, tools, call);
    } finally {
      await client.close();
      await server.close();
    }
  },
  'MCP v2': async (tools, session, call) => {
    const server = new McpServerV2({ name: 'plankit-test', version: '1.0.0' });
    registerV2(server, tools, { session });
    const [serverSide, clientSide] = InMemoryV2.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      return await mcpCall(client as never, tools, call);
    } finally {
      await client.close();
      await server.close();
    }
  },
  'Claude Agent SDK (createSdkMcpServer)': async (tools, session, call) => {
    if (claudeSdk === undefined) throw new Error('@anthropic-ai/claude-agent-sdk is not installed');
    const server = claudeSdk.createSdkMcpServer({ name: 'planning', version: '1.0.0' });
    registerClaudeAgentTools(server, tools, { session });
    const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
    await server.instance.connect(serverSide);
    const client = new ClientV1({ name: 'claude-code-stand-in', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      return await mcpCall(client as never, tools, call);
    } finally {
      await client.close();
      await server.instance.close();
    }
  },
  'OpenAI Agents (Runner)': async (tools, session, call) => {
    const model = new ScriptedModel([[{ name: call.name, args: call.args, callId: 'c1' }], 'done']);
    const agent = new Agent({
      name: 'planner',
      model,
      tools: toOpenAIAgentsTools(tools, { session }),
    });
    await new Runner().run(agent, 'go');
    const advertised = (model.requests[0]?.tools ?? []) as { name: string; strict?: boolean }[];
    expect(advertised.map((tool) => [tool.name, tool.strict])).toEqual(
      tools.map((tool) => [tool.name, true]),
    );
    const text = model.outputs().get('c1') ?? '';
    // The Agents SDK hands a failed tool's text to the model as the call's output.
    return { error: text.startsWith('Tool validation failed: '), text };
  },
};
