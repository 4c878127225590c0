/**
 * plankit tools for the OpenAI API: Chat Completions (`tools`, `tool_calls`, `role: "tool"`
 * messages) and Responses (`function` tools, `function_call` items, `function_call_output`
 * items), with strict mode (on by default for the planning tools).
 *
 * @packageDocumentation
 * @module @plankit/adapters/openai
 */

export type { ConversationKeyContext, SessionRefusal } from '../host/keyed-context.ts';
export type { StrictJsonSchema } from '../host/strict-schema/to-strict-json-schema.ts';
export { toStrictJsonSchema } from '../host/strict-schema/to-strict-json-schema.ts';
export type {
  FunctionCallOutput,
  OpenAICallRecord,
  OpenAIRunOptions,
  OpenAIToolset,
  OpenAIToolsetOptions,
} from './create-openai-toolset.ts';
export { createOpenAIToolset } from './create-openai-toolset.ts';
