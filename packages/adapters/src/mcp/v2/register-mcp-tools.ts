import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import type { AnyTool } from '@plankit/core';
import { addMcpTools, type McpToolsOptions } from '../add-mcp-tools.ts';
import type { McpServerLike } from '../mcp-server-like.ts';

/**
 * Registers plankit tools on an MCP v2 `McpServer` (`@modelcontextprotocol/server`), exactly
 * as `registerMcpTools` from `@plankit/adapters/mcp` does on v1: annotations, `outputSchema`
 * and `structuredContent`, `isError: true` with plankit's text on refusal, calls on one
 * session applied one at a time in arrival order. v2 answers an unknown tool name itself, with
 * a JSON-RPC error (the MCP specification's rule); plankit never sees that call.
 *
 * @returns the registered tools, for the host to disable or remove later
 * @throws AdapterError `tools_invalid` for a server that is not an `McpServer`, a missing
 *   session, or options naming tools that are not in the list
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
  return addMcpTools(server as unknown as McpServerLike, tools, options) as RegisteredTool[];
}
