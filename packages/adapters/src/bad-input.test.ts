import type { ToolMessage } from '@langchain/core/messages';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createPlanningTools, type PlanningTools, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { AISDKToolError } from './ai-sdk/ai-sdk-tool-error.ts';
import { type AISDKToolOutput, toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from './anthropic/create-anthropic-toolset.ts';
import { toLangChainTools } from './langchain/to-langchain-tools.ts';
import { registerMcpTools } from './mcp/register-mcp-tools.ts';
import { createOpenAIToolset } from './openai/create-openai-toolset.ts';

/** What a host reports for one call: the text the model reads and whether it is marked as an error. */
interface Answer {
  readonly text: string;
  readonly error: boolean;
}

type Host = (
  tools: PlanningTools,
  session: Session,
  name: string,
  args: unknown,
) => Promise<Answer>;

const asText = (args: unknown) => (typeof args === 'string' ? args : JSON.stringify(args));
const asObject = (args: unknown) =>
  typeof args === 'string'
    ? (() => {
        try {
          return JSON.parse(args);
        } catch {
          return args;
        }
      })()
    : args;

const hosts: Record<string, Host> = {
  'openai chat': async (tools, session, name, args) => {
    const [record] = await createOpenAIToolset(tools, { strict: true }).runChatToolCalls(
      [{ id: 'c1', type: 'function', function: { name, arguments: asText(args) } }],
      { session },
    );
    return { text: record?.message.content as string, error: record?.result.success === false };
  },
  'openai responses': async (tools, session, name, args) => {
    const [record] = await createOpenAIToolset(tools).runResponsesFunctionCalls(
      [{ type: 'function_call', call_id: 'c1', name, arguments: asText(args) }],
      { session },
    );
    return { text: record?.message.output as string, error: record?.result.success === false };
  },
  anthropic: async (tools, session, name, args) => {
    const [record] = await createAnthropicToolset(tools).runToolUses(
      [{ type: 'tool_use', id: 't1', name, input: asObject(args) }],
      { session },
    );
    return { text: record?.block.content as string, error: record?.block.is_error === true };
  },
  'ai-sdk': async (tools, session, name, args) => {
    const tool = toAISDKTools(tools, { session })[name];
    if (tool?.execute === undefined || tool.toModelOutput === undefined)
      return { text: `Unknown tool '${name}'`, error: true };
    // A refusal is thrown as an AISDKToolError; the SDK turns it into a tool-error part.
    const output = (await Promise.resolve(
      tool.execute(asObject(args), { toolCallId: 'a1', messages: [] }),
    ).catch((error: unknown) => {
      if (AISDKToolError.isInstance(error)) return error;
      throw error;
    })) as AISDKToolOutput | AISDKToolError;
    if (AISDKToolError.isInstance(output)) return { text: output.message, error: true };
    const options = { toolCallId: 'a1', input: args, output: output as never };
    const model = await tool.toModelOutput(options);
    // A success is always read as text; refusals were thrown above.
    return { text: model.value, error: false };
  },
  langchain: async (tools, session, name, args) => {
    const tool = toLangChainTools(tools, { session }).find((candidate) => candidate.name === name);
    if (tool === undefined) return { text: `Unknown tool '${name}'`, error: true };
    try {
      const message = (await tool.invoke({
        id: 'l1',
        name,
        args: asObject(args),
        type: 'tool_call',
      })) as ToolMessage;
      return { text: message.content as string, error: message.status === 'error' };
    } catch (error) {
      // LangChain itself refuses tool-call args that are not an object before any tool runs.
      return { text: `LangChain refused: ${(error as Error).message}`, error: true };
    }
  },
  mcp: async (tools, session, name, args) => {
    const server = new McpServer({ name: 'bad-input', version: '1.0.0' });
    registerMcpTools(server, tools, { session });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'bad-input-client', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const result = (await client.callTool({
        name,
        arguments: asObject(args) as Record<string, unknown>,
      })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      return { text: result.content[0]?.text ?? '', error: result.isError === true };
    } catch (error) {
      // The MCP client refuses to send arguments that are not an object.
      return { text: `MCP refused: ${(error as Error).message}`, error: true };
    } finally {
      await client.close();
      await server.close();
    }
  },
};

const cases: [string, string, unknown, RegExp][] = [
  [
    'a non-JSON string',
    'planning_setup_plan',
    '{"objective": "o"',
    /^(Tool validation failed: Arguments must be a JSON object|LangChain refused|MCP refused)/,
  ],
  [
    'JSON of the wrong type',
    'planning_setup_plan',
    '[1,2,3]',
    /^(Tool validation failed: Arguments must be a JSON object|LangChain refused|MCP refused)/,
  ],
  [
    'nulls everywhere',
    'planning_mark_step',
    { step_id: null, status: null, note: null },
    /^Tool validation failed: step_id: .*; status: /,
  ],
  ['an unknown tool name', 'planning_destroy', {}, /planning_destroy/],
  [
    '1 MB of arguments',
    'planning_setup_plan',
    { objective: 'x'.repeat(1_000_000) },
    /^Tool validation failed: Objective must be <= 240 characters\.$/,
  ],
  [
    // A model that encodes its arguments twice sends a JSON string, not an object: refused on
    // every host, whether the host hands over the text or the value it parsed.
    'arguments encoded twice (a JSON string holding an object)',
    'planning_setup_plan',
    JSON.stringify(JSON.stringify({ objective: 'o' })),
    /^(Tool validation failed: Arguments must be a JSON object, got a string\.$|MCP refused)/,
  ],
  [
    'JSON with a byte order mark',
    'planning_setup_plan',
    '\ufeff{"objective":"o"}',
    /^(Tool validation failed: Arguments must be a JSON object|MCP refused)/,
  ],
  [
    'JSON with trailing garbage',
    'planning_setup_plan',
    '{"objective":"o"} {"objective":"p"}',
    /^(Tool validation failed: Arguments must be a JSON object|MCP refused)/,
  ],
  [
    'an unknown key nested 10,000 deep, as JSON text',
    'planning_setup_plan',
    `{"objective":"o","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
    /^Tool validation failed: Unrecognized key: "x"$/,
  ],
  [
    'a number that overflows to Infinity',
    'planning_setup_plan',
    '{"objective":1e400}',
    /^Tool validation failed: objective: Invalid input: expected string, received Infinity$/,
  ],
  [
    'a __proto__ key',
    'planning_read_plan',
    '{"__proto__":{"polluted":true}}',
    /^Tool validation failed: Unrecognized key: "__proto__"$/,
  ],
];

describe('bad input in every host format', () => {
  for (const [hostName, host] of Object.entries(hosts)) {
    for (const [label, name, args, expected] of cases) {
      it(`${hostName}: ${label} becomes an error result the model can read, and changes nothing`, async () => {
        const session = new Session();
        const tools = createPlanningTools(session);
        const before = session.snapshot();
        const answer = await host(tools, session, name, args);
        expect(answer.error).toBe(true);
        // MCP parses arguments with zod before any tool runs, and zod drops an own __proto__ key
        // without polluting anything: the call then proceeds without it.
        const stripped = label === 'a __proto__ key' && hostName === 'mcp';
        expect(answer.text).toMatch(
          stripped ? /^Tool validation failed: No plan is currently initialised\.$/ : expected,
        );
        expect(answer.text.length).toBeLessThan(2_000);
        expect(session.snapshot()).toBe(before);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      });
    }
  }
});
