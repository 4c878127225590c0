import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AnyTool, Session } from '@plankit/core';
import { AdapterError } from '../adapter-error.ts';
import { callTool } from '../call-tool.ts';
import { formatToolContent } from '../format-tool-content.ts';
import { advertisedSchema } from '../internal/advertised-schema.ts';

/** Options of {@link registerMcpTools}. @public */
export interface McpToolsOptions {
  /** The session the tools run against. */
  readonly session: Session;
  /** The clock for each call, in epoch milliseconds; the session's clock by default. */
  readonly now?: (() => number) | undefined;
}

/**
 * Registers plankit tools on an MCP `McpServer`. `tools/list` shows each tool's JSON Schema;
 * `tools/call` runs it against the session and answers a `CallToolResult` with the same text as
 * every other format, and `isError: true` when plankit refused the call.
 *
 * @returns the registered tools, for the host to disable or remove later
 * @example
 * ```ts
 * const server = new McpServer({ name: 'planner', version: '1.0.0' });
 * registerMcpTools(server, planning.tools(), { session });
 * await server.connect(new StdioServerTransport());
 * ```
 * @public
 */
export function registerMcpTools(
  server: McpServer,
  tools: readonly AnyTool[],
  options: McpToolsOptions,
): RegisteredTool[] {
  if (!Array.isArray(tools))
    throw new AdapterError(
      'tools_invalid',
      'registerMcpTools: tools must be an array of plankit tools.',
    );
  if (typeof server?.registerTool !== 'function') {
    throw new AdapterError('tools_invalid', 'registerMcpTools: server must be an McpServer.', {
      field: 'server',
    });
  }
  return tools.map((definition) =>
    server.registerTool(
      definition.name,
      { description: definition.description, inputSchema: advertisedSchema(definition) },
      async (args: unknown) => {
        const { tool, result } = await callTool(
          tools,
          { name: definition.name, arguments: args },
          { session: options.session, now: options.now?.() },
        );
        return {
          content: [{ type: 'text' as const, text: formatToolContent(result, tool) }],
          ...(result.success ? {} : { isError: true }),
        };
      },
    ),
  );
}
