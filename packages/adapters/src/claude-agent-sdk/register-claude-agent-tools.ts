import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type AnyTool, Session } from '@plankit/core';
import { AdapterError } from '../adapter-error.ts';
import { withContext } from '../host/conversation.ts';
import { checkHostOptions } from '../host/host-tool-options.ts';
import { type ConversationKeyContext, keyedContext } from '../host/keyed-context.ts';
import type { McpToolsOptions } from '../mcp/add-mcp-tools.ts';
import type { McpContext } from '../mcp/mcp-context.ts';
import { registerMcpTools } from '../mcp/register-mcp-tools.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';

/**
 * What `createSdkMcpServer` (`@anthropic-ai/claude-agent-sdk`) returns: an in-process MCP
 * server config whose `instance` is an MCP v1 `McpServer`, for `query({ options: {
 * mcpServers: { [name]: server } } })`.
 *
 * @public
 */
export interface ClaudeAgentSdkServer {
  /** Always `sdk`: the server runs in the host's process. */
  readonly type: 'sdk';
  /** The server's name; its tools reach the model as `mcp__<name>__<tool>`. */
  readonly name: string;
  /** The MCP server the tools are registered on. */
  readonly instance: McpServer;
}

/** Options of {@link registerClaudeAgentTools}. @public */
export interface ClaudeAgentToolsOptions {
  /**
   * Where each call's session comes from: a `Session` (one conversation), or a resolver called
   * once per call with `{ key }` (a pool's `resolver((context) => context.key)`). With a
   * resolver, each call gets the session live at that moment, so a pool may evict and reload
   * the conversation between calls.
   */
  readonly session: SessionSource<ConversationKeyContext>;
  /**
   * The conversation this server serves, for a resolver `session` (ignored with a `Session`).
   * The in-process transport carries no session id, so the key is given here, once per server:
   * create one server per conversation (per `query()`). A missing key (`session_unresolved`) or
   * a hostile one (`conversation_id_invalid`) refuses every call with `isError: true`; the
   * resolver and the store never see it.
   */
  readonly key?: string | undefined;
  /** Where each call's time comes from, in epoch milliseconds; the session's clock by default. */
  readonly clock?: McpToolsOptions['clock'];
  /** Annotations by tool name, merged over plankit's own (see `registerMcpTools`). */
  readonly annotations?: McpToolsOptions['annotations'];
  /** The zod schema of a tool's `structuredContent` by tool name (see `registerMcpTools`). */
  readonly outputSchemas?: McpToolsOptions['outputSchemas'];
  /** Whether a tool result waits for the store (see `registerMcpTools`); `'sync'` by default. */
  readonly durability?: McpToolsOptions['durability'];
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'session',
  'key',
  'clock',
  'annotations',
  'outputSchemas',
  'durability',
]);

function invalid(message: string, field: string): AdapterError {
  return new AdapterError('tools_invalid', `registerClaudeAgentTools: ${message}`, { field });
}

/**
 * Registers plankit tools on a Claude Agent SDK in-process MCP server (the config
 * `createSdkMcpServer` returns), for `query({ prompt, options: { mcpServers: { planning: server } } })`.
 * The tools behave as with `registerMcpTools` (`@plankit/adapters/mcp`), which does the work
 * on `server.instance`: JSON Schema, annotations and output schemas in `tools/list`; the same
 * answer text as every other format; a refusal as `isError: true` with plankit's
 * `Tool validation failed: ...` text; calls on one session applied one at a time.
 *
 * One plan per conversation: the in-process transport has no session id, so create one server
 * per conversation with its `key`, over one pool's resolver. Nothing here starts Claude Code:
 * the server can be driven offline by any MCP client.
 *
 * @example
 * ```ts
 * const pool = createSessionPool({ store: new FileStore() });
 * const planning = createSdkMcpServer({ name: 'planning', version: '1.0.0' });
 * registerClaudeAgentTools(planning, createPlanningTools(new Session()), {
 *   session: pool.resolver((context: { key: string }) => context.key),
 *   key: conversationId,
 * });
 * for await (const message of query({ prompt, options: { mcpServers: { planning } } })) {}
 * ```
 * @returns the registered tools, for the host to disable or remove later
 * @throws AdapterError `tools_invalid` for a server that is not a `createSdkMcpServer` config,
 *   a missing session, an unknown option, a clock that is not a function, or options naming
 *   tools that are not in the list
 * @public
 */
export function registerClaudeAgentTools(
  server: ClaudeAgentSdkServer,
  tools: readonly AnyTool[],
  options: ClaudeAgentToolsOptions,
): RegisteredTool[] {
  const config = server as Partial<ClaudeAgentSdkServer> | null;
  if (typeof config !== 'object' || config === null || config.type !== 'sdk')
    throw invalid('server must be what createSdkMcpServer returns (type "sdk").', 'server');
  if (typeof options !== 'object' || options === null)
    throw invalid('options must be an object with a session.', 'options');
  checkHostOptions('registerClaudeAgentTools', options, OPTION_KEYS, (_where, field, rule) =>
    invalid(`${field} ${rule}.`, field.slice('options.'.length)),
  );
  const { session, key, ...rest } = options;
  if (!(session instanceof Session) && typeof session !== 'function')
    throw invalid('options.session must be a Session or a resolver function.', 'session');
  // The server's one key stands for every request's context, checked per call so a bad key
  // refuses each call rather than the registration.
  const source: SessionSource<McpContext> = withContext(session, () => keyedContext(session, key));
  return registerMcpTools(config.instance as McpServer, tools, { ...rest, session: source });
}
