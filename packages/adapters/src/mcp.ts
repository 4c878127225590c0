/**
 * plankit on an MCP v1 server (`@modelcontextprotocol/sdk` 1.x `McpServer`): the tools with
 * annotations, output schemas and `isError` on refused calls; the plan as a subscribable
 * resource; a prompt section as an MCP prompt. For v2 (`@modelcontextprotocol/server`), import
 * the same functions from `@plankit/adapters/mcp-v2`.
 *
 * @packageDocumentation
 * @module @plankit/adapters/mcp
 */

export type {
  McpPlanResource,
  McpPlanResourceOptions,
} from './mcp/add-mcp-plan-resource.ts';
export { PLAN_RESOURCE_URI, PLAN_VIEW_RESOURCE_URI } from './mcp/add-mcp-plan-resource.ts';
export type { McpPromptOptions, McpPromptSection } from './mcp/add-mcp-prompt.ts';
export type { McpToolsOptions } from './mcp/add-mcp-tools.ts';
export type { McpContext } from './mcp/mcp-context.ts';
export { MCP_PLAN_ID_META_KEY } from './mcp/mcp-context.ts';
export type { McpToolAnnotations } from './mcp/mcp-tool-traits.ts';
export { registerMcpPlanResource } from './mcp/register-mcp-plan-resource.ts';
export { registerMcpPrompt } from './mcp/register-mcp-prompt.ts';
export { registerMcpTools } from './mcp/register-mcp-tools.ts';
