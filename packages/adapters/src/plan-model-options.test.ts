import type { ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { Agent, Runner } from '@openai/agents';
import { type AnyTool, createPlanningTools, invokeTool, Session } from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import { renderPlanReminder } from '@plankit/prompt';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { planReminderStep } from './ai-sdk/plan-reminder-step.ts';
import { aiSdkHostRun } from './ai-sdk/testing/ai-sdk-host-run.ts';
import { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from './anthropic/create-anthropic-toolset.ts';
import {
  type ClaudeAgentSdkServer,
  registerClaudeAgentTools,
} from './claude-agent-sdk/register-claude-agent-tools.ts';
import { isStrict } from './host/host-tool-options.ts';
import { toLangChainTools } from './langchain/to-langchain-tools.ts';
import { registerMcpTools as registerV1 } from './mcp/register-mcp-tools.ts';
import { registerMcpTools as registerV2 } from './mcp/v2/register-mcp-tools.ts';
import { createOpenAIToolset } from './openai/create-openai-toolset.ts';
import { planningApprovalCheckpoint } from './openai-agents/planning-approval-checkpoint.ts';
import { ScriptedModel } from './openai-agents/testing/scripted-model.ts';
import { toOpenAIAgentsTools } from './openai-agents/to-openai-agents-tools.ts';
import { type HostRun, PLAN_MODEL_CASES, workCase } from './testing/plan-model-cases.ts';

// Every opt-in plan-model option (dependencies, batch, history, owners) works end to
// end through every adapter, against the real host packages: the tools are advertised (strict
// where the host has strict mode: every plankit planning tool is strict by default), a call
// applies, and a refusal comes back in the host's error form with plankit's text.

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

// Loaded as the Claude Agent SDK tests load it: an optional peer that may be absent.
const claudeSdk = (await import(/* @vite-ignore */ '@anthropic-ai/claude-agent-sdk').catch(
  () => undefined,
)) as
  | { createSdkMcpServer(options: { name: string; version?: string }): ClaudeAgentSdkServer }
  | undefined;

const HOSTS: Readonly<Record<string, HostRun>> = {
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

describe('every plan-model option through every adapter', () => {
  it('makes every opt-in planning tool strict by default, through its strict trait', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [batch(), owners({ agent: 'a' })],
    });
    for (const tool of [
      tools.planning_apply_batch,
      tools.planning_claim_step,
      tools.planning_release_step,
    ]) {
      expect(tool.traits.strict).toBe(true);
      // The adapters' one rule reads the trait when no strict option is given.
      expect(isStrict(tool, undefined)).toBe(true);
    }
    // A name is not a trait: a look-alike without the trait is not strict.
    expect(isStrict({ name: 'planning_apply_batch', traits: {} } as AnyTool, undefined)).toBe(
      false,
    );
  });

  it("AI SDK planReminderStep shows the Ready and Blocked lines with renderPlanReminder's dependencies option", async () => {
    const session = new Session();
    const { planning_setup_plan: setup } = createPlanningTools(session, {
      extensions: [dependencies()],
    });
    await invokeTool(
      setup,
      {
        objective: 'Ship',
        initial_steps: [{ title: 'Build' }, { title: 'Test', depends_on: ['S001'] }],
      },
      { session },
    );
    const step = planReminderStep({
      session,
      render: (plan) => renderPlanReminder(plan, { dependencies: true }),
    });
    const { messages } = await step({ messages: [{ role: 'user', content: 'go' }] });
    const last = messages?.at(-1);
    expect(last?.role).toBe('user');
    expect(String(last?.content)).toContain('Ready: S001\nBlocked: S002 (waiting on S001)');
  });

  it('AI SDK planReminderStep offers the batch tool before there is a plan, since a batch can set one up', async () => {
    const session = new Session();
    const tools = createPlanningTools(session, { extensions: [batch(), owners({ agent: 'a' })] });
    const step = planReminderStep({
      session,
      render: () => undefined,
      activeTools: { ...toAISDKTools([...tools], { session }), search_web: {} },
    });
    const before = await step({ messages: [] });
    expect(before.activeTools?.sort()).toEqual([
      'planning_apply_batch',
      'planning_setup_plan',
      'search_web',
    ]);
    // The model sets the plan up and finishes it in batches, as the docs recommend.
    const operations = [
      { op: 'setup', objective: 'Ship' },
      { op: 'add', title: 'Build' },
      { op: 'mark', step_id: 'S001', status: 'done' },
    ];
    const done = await invokeTool(tools.planning_apply_batch, { operations }, { session });
    expect(done.success).toBe(true);
    // A finished plan: the tools that work on open steps are gone, the rest stay.
    const after = await step({ messages: [] });
    expect(after.activeTools?.sort()).toEqual([
      'planning_apply_batch',
      'planning_clear_plan',
      'planning_read_plan',
      'planning_setup_plan',
      'search_web',
    ]);
  });

  it('OpenAI Agents planningApprovalCheckpoint asks before every change an extension tool makes', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [batch(), owners({ agent: 'a' }), history()],
    });
    const checkpoints = Object.fromEntries(
      tools.map((tool) => [tool.name, planningApprovalCheckpoint(tool)]),
    );
    expect(checkpoints).toEqual({
      planning_setup_plan: 'step',
      planning_add_step: 'step',
      planning_update_step: 'step',
      planning_mark_step: 'step',
      planning_clear_plan: 'milestone',
      planning_read_plan: undefined,
      planning_apply_batch: 'step',
      planning_claim_step: 'step',
      planning_release_step: 'step',
    });
    // Not a planning tool: the host decides.
    expect(planningApprovalCheckpoint({ name: 'search_web', traits: {} } as AnyTool)).toBe(
      undefined,
    );
  });

  it('OpenAI Agents planningApprovalCheckpoint reads the plan trait, never the name', () => {
    const tool = (name: string, traits: AnyTool['traits']) => ({ name, traits }) as AnyTool;
    // A planning_ name without the trait is not a planning tool.
    expect(planningApprovalCheckpoint(tool('planning_clear_plan', {}))).toBeUndefined();
    // Your own tools are placed by their trait, whatever their names.
    expect(planningApprovalCheckpoint(tool('wipe', { plan: 'clear' }))).toBe('milestone');
    expect(planningApprovalCheckpoint(tool('tick', { plan: 'edit' }))).toBe('step');
    expect(planningApprovalCheckpoint(tool('show', { plan: 'read' }))).toBeUndefined();
  });

  for (const [host, run] of Object.entries(HOSTS)) {
    for (const c of PLAN_MODEL_CASES) {
      const absent = host.startsWith('Claude Agent SDK') && claudeSdk === undefined;
      it.skipIf(absent)(`${c.option} through ${host}`, async () => {
        await workCase(run, c);
      });
    }
  }
});
