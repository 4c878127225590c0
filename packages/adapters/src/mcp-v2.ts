/**
 * plankit on an MCP v2 server (`@modelcontextprotocol/server` 2.x `McpServer`): the same
 * functions as `@plankit/adapters/mcp` (v1), typed for v2 and sharing one implementation.
 *
 * @packageDocumentation
 * @module @plankit/adapters/mcp-v2
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
export { registerMcpPlanResource } from './mcp/v2/register-mcp-plan-resource.ts';
export { registerMcpPrompt } from './mcp/v2/register-mcp-prompt.ts';
export { registerMcpTools } from './mcp/v2/register-mcp-tools.ts';
