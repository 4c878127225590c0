import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AnyTool } from '@plankit/core';
import { addMcpTools, type McpToolsOptions } from './add-mcp-tools.ts';
import type { McpServerLike } from './mcp-server-like.ts';

/**
 * Registers plankit tools on an MCP v1 `McpServer` (`@modelcontextprotocol/sdk`). `tools/list`
 * shows each tool's JSON Schema, its annotations (the planning tools' read-only, destructive
 * and idempotent hints) and, for object results, an `outputSchema`. `tools/call` runs the tool
 * against the session and answers the same text as every other format, with the result's value
 * as `structuredContent`; a refusal answers `isError: true` and plankit's
 * `Tool validation failed: ...` text. Calls on one session apply one at a time, in the order
 * their requests reach the server. For MCP v2 use `@plankit/adapters/mcp-v2`.
 *
 * With a resolver as `session`, each call runs on the session of its own client: the
 * context's `sessionId` is the transport's session id (Streamable HTTP's `Mcp-Session-Id`;
 * stdio has none, so a stdio server serves one client and takes a `Session`). A call with no
 * identity, or a hostile one, answers `isError: true` (`session_unresolved`,
 * `conversation_id_invalid`) and never falls back to a shared plan.
 *
 * @returns the registered tools, for the host to disable or remove later
 * @throws AdapterError `tools_invalid` for a server that is not an `McpServer`, a missing
 *   session, a clock that is not a function (or both `clock` and `now`), or options naming
 *   tools that are not in the list
 * @example
 * ```ts
 * const server = new McpServer({ name: 'planner', version: '1.0.0' });
 * registerMcpTools(server, planning.tools(), { session });
 * await server.connect(new StdioServerTransport());
 * ```
 * One plan per client over Streamable HTTP (one `McpServer` per connection, one pool):
 * ```ts
 * const pool = createSessionPool({ store: new FileStore() });
 * const session = pool.resolver((context: McpContext) => context.sessionId);
 * const server = new McpServer({ name: 'planner', version: '1.0.0' });
 * registerMcpTools(server, planning.tools(), { session });
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
