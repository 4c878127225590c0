/**
 * The host-neutral layer shared by every adapter: JSON Schemas of tools, argument parsing,
 * calling a tool by name, and the text a model reads back. Each host has its own subpath:
 * `@plankit/adapters/openai`, `/anthropic`, `/ai-sdk`, `/langchain`, `/mcp`; session stores
 * live in `/stores` and `/postgres`.
 *
 * @packageDocumentation
 * @module @plankit/adapters
 */

export type { AdapterErrorCode } from './adapter-error.ts';
export { AdapterError } from './adapter-error.ts';
export type { CallToolOptions } from './host/call-tool.ts';
export { callTool } from './host/call-tool.ts';
export { formatToolContent } from './host/format-tool-content.ts';
export type { Durability, HostToolOptions, StrictOption } from './host/host-tool-options.ts';
export { DEFAULT_DURABILITY } from './host/host-tool-options.ts';
export type { ToolCallOrder } from './host/model-order.ts';
export { announceToolCalls } from './host/model-order.ts';
export { type ParseToolArgumentsOptions, parseToolArguments } from './host/parse-tool-arguments.ts';
export type { ToolCallOutcome, ToolCallRequest } from './host/run-host-call.ts';
export type { JsonSchema } from './tool-json-schema.ts';
export { toolJsonSchema } from './tool-json-schema.ts';
