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
 * The 2026 protocol has no session id, so with a resolver as `session` the client names its
 * plan in each request's `_meta` (`{ 'plankit/planId': id }`, `MCP_PLAN_ID_META_KEY`),
 * and the resolver reads `context.planId`. That id is chosen by the client application, not
 * the model, so the tools' schemas stay as they are and a model cannot switch plans. (v2's
 * `requestState` is minted by the server for one multi-round-trip request, so it does not
 * name a conversation.) A call with no plan id, or a hostile one, answers `isError: true`
 * (`session_unresolved`, `conversation_id_invalid`) and never falls back to a shared plan.
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
 * One plan per conversation, named by the client (`_meta: { 'plankit/planId': 'chat-42' }`):
 * ```ts
 * const pool = createSessionPool({ store: new FileStore() });
 * const session = pool.resolver((context: McpContext) => context.planId);
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
