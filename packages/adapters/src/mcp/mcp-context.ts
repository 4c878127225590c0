import type { Result } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import { type Conversation, conversationOf } from '../host/conversation.ts';
import { parseConversationId } from '../sessions/conversation-id.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';

/**
 * The `_meta` key in which an MCP client names the plan (the conversation) a request is
 * about: `_meta: { 'plankit/planId': 'chat-42' }` on `tools/call`, `resources/read` and
 * `resources/subscribe`. The 2026 protocol (MCP v2) has no session id, so this is how a v2
 * client names its plan; a v1 client may use it too.
 *
 * @public
 */
export const MCP_PLAN_ID_META_KEY = 'plankit/planId';

/**
 * What a session resolver receives for an MCP request (`tools/call`, `resources/read`,
 * `resources/subscribe`): the identities the request carries. Ids that are present are valid
 * conversation ids (see `isConversationId`): a hostile one is refused before the resolver is
 * called.
 *
 * @public
 */
export interface McpContext {
  /**
   * The transport's session id: v1 `extra.sessionId` (Streamable HTTP's `Mcp-Session-Id`), v2
   * `ctx.sessionId` on its 2025-protocol transports. `undefined` on stdio, in-memory and
   * stateless transports, and on the 2026 protocol.
   */
  readonly sessionId: string | undefined;
  /** The plan id the client sent in `_meta["plankit/planId"]` ({@link MCP_PLAN_ID_META_KEY}). */
  readonly planId: string | undefined;
  /** The request's `_meta`, for hosts that name conversations with keys of their own. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Reads the identities of a request from the SDK's handler extra (v1 `RequestHandlerExtra`,
 * v2 `ServerContext`), checking each one present with `parseConversationId`.
 */
export function mcpContextOf(extra: unknown): Result<McpContext, SessionResolveError> {
  const record = isRecord(extra) ? extra : {};
  const request = record['mcpReq'];
  const meta = isRecord(record['_meta'])
    ? record['_meta']
    : isRecord(request) && isRecord(request['_meta'])
      ? request['_meta']
      : undefined;
  const rawSessionId = record['sessionId'];
  const rawPlanId = meta?.[MCP_PLAN_ID_META_KEY];
  let sessionId: string | undefined;
  if (rawSessionId !== undefined) {
    const checked = parseConversationId(rawSessionId, 'sessionId');
    if (!checked.ok) return checked;
    sessionId = checked.value;
  }
  let planId: string | undefined;
  if (rawPlanId !== undefined) {
    const checked = parseConversationId(rawPlanId, `_meta["${MCP_PLAN_ID_META_KEY}"]`);
    if (!checked.ok) return checked;
    planId = checked.value;
  }
  return { ok: true, value: Object.freeze({ sessionId, planId, meta }) };
}

/**
 * The context a request gives the session source: none for a `Session`, else the request's
 * {@link McpContext}, or why its identities are refused.
 */
export function mcpCallContext(
  source: SessionSource<McpContext>,
  extra: unknown,
): Result<McpContext, SessionResolveError> {
  return typeof source === 'function' ? mcpContextOf(extra) : UNNAMED;
}

/** The conversation of one MCP request (see {@link mcpCallContext}). Never a shared default. */
export async function mcpConversation(
  source: SessionSource<McpContext>,
  extra: unknown,
): Promise<Result<Conversation, SessionResolveError>> {
  const context = mcpCallContext(source, extra);
  if (!context.ok) return context;
  return conversationOf(source, context.value);
}

const UNNAMED: Result<McpContext, SessionResolveError> = Object.freeze({
  ok: true,
  value: Object.freeze({ sessionId: undefined, planId: undefined, meta: undefined }),
});
