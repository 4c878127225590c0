import type { McpServer, RegisteredPrompt } from '@modelcontextprotocol/sdk/server/mcp.js';
import { addMcpPrompt, type McpPromptOptions, type McpPromptSection } from './add-mcp-prompt.ts';
import type { McpServerLike } from './mcp-server-like.ts';

/**
 * Registers a prompt section, such as `PlanningToolsSection` from `@plankit/prompt`, as a
 * prompt on an MCP v1 `McpServer`: `prompts/get` answers one user message with the section's
 * markdown, rendered on each request (MCP prompts have no system role).
 *
 * @returns the registered prompt
 * @throws AdapterError `tools_invalid` for a bad server, section or option; the section's own
 *   error when it cannot render without params
 * @example
 * ```ts
 * registerMcpPrompt(server, new PlanningToolsSection({ session })); // prompt 'planning.tools'
 * ```
 * @public
 */
export function registerMcpPrompt(
  server: McpServer,
  section: McpPromptSection,
  options: McpPromptOptions = {},
): RegisteredPrompt {
  return addMcpPrompt(server as unknown as McpServerLike, section, options) as RegisteredPrompt;
}
