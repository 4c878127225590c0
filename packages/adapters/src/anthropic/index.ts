/**
 * plankit tools for the Anthropic Messages API: `tools` with `input_schema`, `tool_use`
 * blocks in, `tool_result` blocks (with `is_error` on failure) out, and strict tool use.
 *
 * @packageDocumentation
 * @module @plankit/adapters/anthropic
 */

export type { ConversationKeyContext, SessionRefusal } from '../host/keyed-context.ts';
export type {
  AnthropicCallRecord,
  AnthropicRunOptions,
  AnthropicToolset,
  AnthropicToolsetOptions,
} from './create-anthropic-toolset.ts';
export { createAnthropicToolset } from './create-anthropic-toolset.ts';
