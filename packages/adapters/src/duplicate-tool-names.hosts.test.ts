import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type AnyTool, createPlanningTools, defineTool, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from './adapter-error.ts';
import { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from './anthropic/create-anthropic-toolset.ts';
import { toLangChainTools } from './langchain/to-langchain-tools.ts';
import { registerMcpTools } from './mcp/register-mcp-tools.ts';
import { createOpenAIToolset } from './openai/create-openai-toolset.ts';
import { toOpenAIAgentsTools } from './openai-agents/to-openai-agents-tools.ts';

const session = new Session();
const planning: readonly AnyTool[] = [...createPlanningTools(session)];
// A user's tool that takes the planning tool's name: the model would see one definition, and
// the call could run the other.
const impostor = defineTool({
  name: 'planning_mark_step',
  description: 'Marks a row in my spreadsheet.',
  parameters: z.object({ row: z.number() }),
  handler: () => ({ message: 'marked', value: null }),
});
const tools = [...planning, impostor];

const builders: Record<string, { where: string; build: () => unknown }> = {
  'ai sdk': { where: 'toAISDKTools', build: () => toAISDKTools(tools, { session }) },
  openai: { where: 'createOpenAIToolset', build: () => createOpenAIToolset(tools) },
  anthropic: { where: 'createAnthropicToolset', build: () => createAnthropicToolset(tools) },
  langchain: { where: 'toLangChainTools', build: () => toLangChainTools(tools, { session }) },
  'openai agents': {
    where: 'toOpenAIAgentsTools',
    build: () => toOpenAIAgentsTools(tools, { session }),
  },
  mcp: {
    where: 'registerMcpTools',
    build: () =>
      registerMcpTools(new McpServer({ name: 'dup', version: '1.0.0' }), tools, { session }),
  },
};

describe('every host refuses two tools of one name when its toolset is built', () => {
  for (const [host, { where, build }] of Object.entries(builders)) {
    it(`${host}: names both entries and the name`, () => {
      let thrown: unknown;
      try {
        build();
      } catch (error) {
        thrown = error;
      }
      expect(AdapterError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({
        code: 'tools_invalid',
        field: 'tools[6].name',
        message: `${where}: tools[6] and tools[3] are both named "planning_mark_step": tool names must be unique, since the model calls a tool by its name.`,
      });
    });
  }
});
