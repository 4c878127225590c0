import type { McpServer, RegisteredResource } from '@modelcontextprotocol/server';
import {
  addMcpPlanResource,
  type McpPlanResource,
  type McpPlanResourceOptions,
} from '../add-mcp-plan-resource.ts';
import type { McpServerLike, SetSubscriptionHandlers } from '../mcp-server-like.ts';

// v2 keys request handlers by method name, so no SDK value is needed at run time.
const setSubscriptionHandlers: SetSubscriptionHandlers = (low, onSubscribe, onUnsubscribe) => {
  const server = low as unknown as McpServer['server'];
  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    await onSubscribe(request.params.uri, ctx);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    onUnsubscribe(request.params.uri);
    return {};
  });
};

/**
 * Registers the session's plan as a resource (`plankit://plan`, JSON; `null` before a plan is
 * set up) and its view for display (`plankit://plan/view`, `planView`'s JSON) on an MCP v2
 * `McpServer`, with `resources/subscribe` and `notifications/resources/updated` on every
 * change, as `registerMcpPlanResource` from `@plankit/adapters/mcp` does on v1. Call it before
 * `server.connect()`.
 *
 * @returns the URIs, the SDK's registered resources, and `close()` to stop following the
 *   session (also done when the server closes)
 * @throws AdapterError `tools_invalid` for a connected server, a server with its own
 *   subscription handlers, a missing session or a bad URI (or a view URI equal to the plan's)
 * @example
 * ```ts
 * const plan = registerMcpPlanResource(server, { session });
 * await server.connect(transport);
 * ```
 * @public
 */
export function registerMcpPlanResource(
  server: McpServer,
  options: McpPlanResourceOptions,
): McpPlanResource<RegisteredResource> {
  return addMcpPlanResource(
    server as unknown as McpServerLike,
    options,
    setSubscriptionHandlers,
  ) as McpPlanResource<RegisteredResource>;
}
