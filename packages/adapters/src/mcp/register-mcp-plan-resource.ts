import type { McpServer, RegisteredResource } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  addMcpPlanResource,
  type McpPlanResource,
  type McpPlanResourceOptions,
} from './add-mcp-plan-resource.ts';
import type { McpServerLike, SetSubscriptionHandlers } from './mcp-server-like.ts';

// v1 keys request handlers by the request's zod schema.
const setSubscriptionHandlers: SetSubscriptionHandlers = (low, onSubscribe, onUnsubscribe) => {
  const server = low as unknown as McpServer['server'];
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    await onSubscribe(request.params.uri, extra);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    onUnsubscribe(request.params.uri);
    return {};
  });
};

/**
 * Registers the session's plan as a resource (`plankit://plan`, JSON; `null` before a plan is
 * set up) on an MCP v1 `McpServer`, and the plan's view for display (`plankit://plan/view`:
 * `planView`'s JSON, the same view the AI SDK's `data-plan` part carries; `null` before a
 * plan), with subscriptions: a client that sent `resources/subscribe` for either gets
 * `notifications/resources/updated` for it each time it changes, before the response of the
 * `tools/call` that changed it. The resource list never changes,
 * so no `resources/list_changed` is sent. Call it before `server.connect()` (subscriptions are
 * announced in the handshake); it takes over `resources/subscribe` and `resources/unsubscribe`
 * on that server.
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
