/**
 * plankit plans in editors that speak the Agent Client Protocol (`@agentclientprotocol/sdk`):
 * each committed plan change of a session becomes a `plan` session update, the whole plan is
 * replayed on `session/load`, and planning tool calls show as `tool_call` /
 * `tool_call_update`, for many ACP sessions on one connection through a session pool. A request
 * naming a session the agent never created or saved is refused as ACP says (`-32002`).
 *
 * @packageDocumentation
 * @module @plankit/adapters/acp
 */

export type { ACPSessionErrorCode, ACPSessionErrorOptions } from './acp-session-error.ts';
export { ACPSessionError } from './acp-session-error.ts';
export type { ACPPlanningToolKind } from './acp-tool-kind.ts';
export { acpToolKind } from './acp-tool-kind.ts';
export type {
  ACPClientLike,
  ACPPlanBridge,
  ACPPlanBridgeOptions,
  ACPToolCallOptions,
  ACPToolCallRequest,
} from './create-acp-plan-bridge.ts';
export { createACPPlanBridge } from './create-acp-plan-bridge.ts';
export type { ACPError } from './to-acp-error.ts';
export { toACPError } from './to-acp-error.ts';
export { ACP_ABANDONED_PREFIX, ACP_BLOCKED_PREFIX, toACPPlanUpdate } from './to-acp-plan-update.ts';
