import type { McpToolAnnotations } from './mcp-tool-traits.ts';

/**
 * What plankit uses of an MCP `McpServer`: the members v1 (`@modelcontextprotocol/sdk`) and v2
 * (`@modelcontextprotocol/server`) share. The typed entries (`/mcp`, `/mcp-v2`) take their own
 * major's `McpServer` and hand it to the shared code as this shape.
 */
export interface McpServerLike {
  registerTool(name: string, config: McpToolConfig, callback: McpToolCallback): unknown;
  registerResource(
    name: string,
    uri: string,
    metadata: McpResourceMetadata,
    read: (uri: URL, extra: unknown) => Promise<McpReadResourceResult>,
  ): unknown;
  registerPrompt(name: string, config: McpPromptConfig, callback: () => McpPromptResult): unknown;
  isConnected(): boolean;
  readonly server: McpLowLevelServer;
}

/** The low-level `Server` behind an `McpServer` (`mcpServer.server`). */
export interface McpLowLevelServer {
  registerCapabilities(capabilities: Record<string, unknown>): void;
  assertCanSetRequestHandler(method: string): void;
  sendResourceUpdated(params: { uri: string }): Promise<void>;
  onclose?: (() => void) | undefined;
}

/** A `registerTool` config (zod schemas serve both majors: v2 reads them as Standard Schema). */
export interface McpToolConfig {
  readonly description: string;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: McpToolAnnotations;
}

/** A `tools/call` result. */
export interface McpCallToolResult {
  readonly [key: string]: unknown;
  readonly content: { type: 'text'; text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** A tool's handler; `extra` is v1's `RequestHandlerExtra` or v2's `ServerContext`. */
export type McpToolCallback = (args: unknown, extra: unknown) => Promise<McpCallToolResult>;

export interface McpResourceMetadata {
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface McpReadResourceResult {
  readonly [key: string]: unknown;
  readonly contents: { uri: string; mimeType: string; text: string }[];
}

export interface McpPromptConfig {
  readonly title?: string;
  readonly description?: string;
}

export interface McpPromptResult {
  readonly [key: string]: unknown;
  readonly description?: string;
  readonly messages: { role: 'user'; content: { type: 'text'; text: string } }[];
}

/**
 * Installs the `resources/subscribe` and `resources/unsubscribe` handlers: the one call whose
 * form differs between the majors (v1 keys handlers by request schema, v2 by method name).
 */
export type SetSubscriptionHandlers = (
  server: McpLowLevelServer,
  onSubscribe: (uri: string, extra: unknown) => void | Promise<void>,
  onUnsubscribe: (uri: string) => void,
) => void;
