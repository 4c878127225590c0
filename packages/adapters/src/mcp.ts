/**
 * plankit tools on an MCP server: `tools/list` definitions and `tools/call` results with
 * `isError` on refused calls.
 *
 * @packageDocumentation
 * @module @plankit/adapters/mcp
 */

export type { McpToolsOptions } from './mcp/register-mcp-tools.ts';
export { registerMcpTools } from './mcp/register-mcp-tools.ts';
