import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { type AnyTool, defineDataType, defineTool, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { createAnthropicToolset } from './anthropic/create-anthropic-toolset.ts';
import { registerMcpTools as registerMcpToolsV1 } from './mcp/register-mcp-tools.ts';
import { registerMcpTools as registerMcpToolsV2 } from './mcp/v2/register-mcp-tools.ts';
import { createOpenAIToolset } from './openai/create-openai-toolset.ts';
import { toOpenAIAgentsTools } from './openai-agents/to-openai-agents-tools.ts';

// A user's own tools: every adapter reads strict mode and the MCP hints from the tool's
// traits, with no list of names anywhere.

const Archived = defineDataType('test.ticket_archived', z.strictObject({ id: z.string() }));

const archive = defineTool({
  name: 'archive_ticket',
  description: 'Archive a ticket.',
  parameters: z.strictObject({ id: z.string(), reason: z.string().optional() }),
  resultType: Archived,
  traits: {
    strict: true,
    title: 'Archive a ticket',
    readOnly: false,
    destructive: true,
    idempotent: true,
    openWorld: true,
  },
  handler: ({ id }) => ({ message: `Archived ${id}.`, value: { id } }),
});

const lookup = defineTool({
  name: 'lookup_ticket',
  description: 'Fetch a ticket by id.',
  parameters: z.strictObject({ id: z.string() }),
  handler: ({ id }) => ({ message: `Found ${id}.`, value: { id } }),
});

const tools: readonly AnyTool[] = [archive, lookup];

describe("every adapter reads a user's tool's traits", () => {
  it('OpenAI Chat Completions and Responses: strict from the trait, the option still wins', () => {
    const toolset = createOpenAIToolset(tools);
    expect(toolset.chatTools.map((tool) => tool.function.strict)).toEqual([true, false]);
    expect(toolset.responsesTools.map((tool) => tool.strict)).toEqual([true, false]);
    // Strict mode rewrites the optional key as required and nullable.
    expect(toolset.chatTools[0]?.function.parameters).toMatchObject({
      required: ['id', 'reason'],
    });
    expect(
      createOpenAIToolset(tools, { strict: false }).chatTools.map((tool) => tool.function.strict),
    ).toEqual([false, false]);
  });

  it('Anthropic: strict tool use from the trait', () => {
    const toolset = createAnthropicToolset(tools);
    expect(toolset.tools.map((tool) => (tool as { strict?: boolean }).strict)).toEqual([
      true,
      undefined,
    ]);
  });

  it('AI SDK: strict and the title from the traits', () => {
    const converted = toAISDKTools(tools, { session: new Session() });
    expect(converted['archive_ticket']?.strict).toBe(true);
    expect(converted['archive_ticket']?.title).toBe('Archive a ticket');
    expect(converted['lookup_ticket']?.strict).toBe(false);
    expect(converted['lookup_ticket']).not.toHaveProperty('title');
  });

  it('OpenAI Agents SDK: strict from the trait', () => {
    const converted = toOpenAIAgentsTools(tools, { session: new Session() });
    expect(converted.map((tool) => [tool.name, tool.strict])).toEqual([
      ['archive_ticket', true],
      ['lookup_ticket', false],
    ]);
  });

  const expected = {
    archive_ticket: {
      title: 'Archive a ticket',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    },
    // No traits and no resultType: core's mark of a tool that only reads.
    lookup_ticket: { readOnlyHint: true },
  };

  const majors = [
    {
      name: 'v1',
      server: () => new McpServerV1({ name: 'traits', version: '1.0.0' }),
      register: registerMcpToolsV1,
      pair: () => InMemoryV1.createLinkedPair(),
      client: () => new ClientV1({ name: 'test-client', version: '1.0.0' }),
    },
    {
      name: 'v2',
      server: () => new McpServerV2({ name: 'traits', version: '1.0.0' }),
      register: registerMcpToolsV2,
      pair: () => InMemoryV2.createLinkedPair(),
      client: () => new ClientV2({ name: 'test-client', version: '1.0.0' }),
    },
  ] as const;
  for (const major of majors) {
    it(`MCP ${major.name}: a real client lists the annotations the traits give`, async () => {
      const server = major.server();
      major.register(server as never, tools, { session: new Session() });
      const [serverSide, clientSide] = major.pair();
      await server.connect(serverSide as never);
      const client = major.client();
      await client.connect(clientSide as never);
      try {
        const { tools: listed } = await client.listTools();
        expect(Object.fromEntries(listed.map((tool) => [tool.name, tool.annotations]))).toEqual(
          expected,
        );
      } finally {
        await client.close();
        await server.close();
      }
    });
  }
});
