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
export type { CallToolOptions, ToolCallOutcome, ToolCallRequest } from './call-tool.ts';
export { callTool } from './call-tool.ts';
export { formatToolContent } from './format-tool-content.ts';
export type { ToolCallOrder } from './model-order.ts';
export { announceToolCalls } from './model-order.ts';
export { type ParseToolArgumentsOptions, parseToolArguments } from './parse-tool-arguments.ts';
export type { JsonSchema } from './tool-json-schema.ts';
export { toolJsonSchema } from './tool-json-schema.ts';
