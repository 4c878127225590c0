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
} from '../add-mcp-plan-resource.ts';
export { PLAN_RESOURCE_URI, PLAN_VIEW_RESOURCE_URI } from '../add-mcp-plan-resource.ts';
export type { McpPromptOptions, McpPromptSection } from '../add-mcp-prompt.ts';
export type { McpToolsOptions } from '../add-mcp-tools.ts';
export type { McpContext } from '../mcp-context.ts';
export { MCP_PLAN_ID_META_KEY } from '../mcp-context.ts';
export type { McpToolAnnotations } from '../mcp-tool-traits.ts';
export { registerMcpPlanResource } from './register-mcp-plan-resource.ts';
export { registerMcpPrompt } from './register-mcp-prompt.ts';
export { registerMcpTools } from './register-mcp-tools.ts';
