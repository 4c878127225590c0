import type { AnyTool, Session, ToolResult } from '@plankit/core';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageToolCall,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses';
import { AdapterError } from '../adapter-error.ts';
import { callTool } from '../call-tool.ts';
import { formatToolContent } from '../format-tool-content.ts';
import { type JsonSchema, toolJsonSchema } from '../tool-json-schema.ts';
import { type StrictJsonSchema, toStrictJsonSchema } from './to-strict-json-schema.ts';

/** Options of {@link createOpenAIToolset}. @public */
export interface OpenAIToolsetOptions {
  /** Strict mode for every tool, or per tool; off by default. */
  readonly strict?: boolean | ((tool: AnyTool) => boolean) | undefined;
}

/** Options of the run methods of an {@link OpenAIToolset}. @public */
export interface OpenAIRunOptions {
  /** The session the tools run against. */
  readonly session: Session;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
}

/** One executed call: the plankit result beside the message for the model. @public */
export interface OpenAICallRecord<M> {
  /** The call id the model gave. */
  readonly callId: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /** The plankit result (for the host: `error.code`, `error.field`). */
  readonly result: ToolResult<unknown>;
  /** What goes back to the model. */
  readonly message: M;
}

/** A `function_call_output` input item of the Responses API. @public */
export type FunctionCallOutput = ResponseInputItem.FunctionCallOutput;

/**
 * plankit tools in OpenAI's shapes: Chat Completions and Responses definitions, and runners
 * that turn the model's tool calls into the messages to send back.
 *
 * @public
 */
export interface OpenAIToolset {
  /** Chat Completions `tools`. */
  readonly chatTools: readonly ChatCompletionFunctionTool[];
  /** Responses API `tools`. */
  readonly responsesTools: readonly FunctionTool[];
  /**
   * Runs `message.tool_calls` in order, returning one `role: "tool"` message per call.
   * Never throws for what the model sent.
   */
  runChatToolCalls(
    toolCalls: readonly ChatCompletionMessageToolCall[] | null | undefined,
    options: OpenAIRunOptions,
  ): Promise<OpenAICallRecord<ChatCompletionToolMessageParam>[]>;
  /**
   * Runs the `function_call` items of `response.output` in order (other items are skipped),
   * returning one `function_call_output` item per call. Never throws for what the model sent.
   */
  runResponsesFunctionCalls(
    output: readonly unknown[],
    options: OpenAIRunOptions,
  ): Promise<OpenAICallRecord<FunctionCallOutput>[]>;
}

interface FunctionCallItem {
  readonly type: 'function_call';
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

function isFunctionCall(item: unknown): item is FunctionCallItem {
  if (typeof item !== 'object' || item === null) return false;
  const record = item as Record<string, unknown>;
  return record['type'] === 'function_call' && typeof record['call_id'] === 'string';
}

/**
 * Converts tools to OpenAI's formats once, with strict mode where asked.
 *
 * @example
 * ```ts
 * const toolset = createOpenAIToolset(planning.tools(), { strict: true });
 * const completion = await openai.chat.completions.create({ model, messages, tools: [...toolset.chatTools] });
 * const replies = await toolset.runChatToolCalls(completion.choices[0].message.tool_calls, { session });
 * messages.push(completion.choices[0].message, ...replies.map((reply) => reply.message));
 * ```
 * @throws AdapterError when a strict tool's schema cannot be expressed in strict mode
 * @public
 */
export function createOpenAIToolset(
  tools: readonly AnyTool[],
  options: OpenAIToolsetOptions = {},
): OpenAIToolset {
  if (!Array.isArray(tools))
    throw new AdapterError(
      'tools_invalid',
      'createOpenAIToolset: tools must be an array of plankit tools.',
    );
  const strictOf = (tool: AnyTool): boolean =>
    typeof options.strict === 'function' ? options.strict(tool) : (options.strict ?? false);
  const strictSchemas = new Map<string, StrictJsonSchema>();
  const parameters = new Map<string, JsonSchema>();
  for (const tool of tools) {
    if (strictOf(tool)) {
      let converted: StrictJsonSchema;
      try {
        converted = toStrictJsonSchema(toolJsonSchema(tool));
      } catch (error) {
        if (!AdapterError.isInstance(error)) throw error;
        throw new AdapterError('schema_unsupported', `Tool '${tool.name}': ${error.message}`, {
          field: error.field,
          cause: error,
        });
      }
      strictSchemas.set(tool.name, converted);
      parameters.set(tool.name, converted.schema);
    } else parameters.set(tool.name, toolJsonSchema(tool));
  }
  const params = (tool: AnyTool): Record<string, unknown> =>
    parameters.get(tool.name) as Record<string, unknown>;
  const chatTools = tools.map(
    (tool): ChatCompletionFunctionTool => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: params(tool),
        strict: strictSchemas.has(tool.name),
      },
    }),
  );
  const responsesTools = tools.map(
    (tool): FunctionTool => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: params(tool),
      strict: strictSchemas.has(tool.name),
    }),
  );
  const prepare = (args: Readonly<Record<string, unknown>>, tool: AnyTool): unknown =>
    strictSchemas.get(tool.name)?.restore(args) ?? args;

  const toolset: OpenAIToolset = {
    chatTools: Object.freeze(chatTools),
    responsesTools: Object.freeze(responsesTools),
    async runChatToolCalls(toolCalls, run) {
      const records: OpenAICallRecord<ChatCompletionToolMessageParam>[] = [];
      for (const call of toolCalls ?? []) {
        const name = call.type === 'function' ? call.function.name : call.custom.name;
        const request =
          call.type === 'function'
            ? { name, arguments: call.function.arguments }
            : { name: '', arguments: '{}' };
        const { tool, result } = await callTool(tools, request, {
          session: run.session,
          now: run.now,
          prepare,
        });
        const content = formatToolContent(result, tool);
        records.push({
          callId: call.id,
          name,
          result,
          message: { role: 'tool', tool_call_id: call.id, content },
        });
      }
      return records;
    },
    async runResponsesFunctionCalls(output, run) {
      const records: OpenAICallRecord<FunctionCallOutput>[] = [];
      for (const item of output ?? []) {
        if (!isFunctionCall(item)) continue;
        const { tool, result } = await callTool(
          tools,
          { name: item.name, arguments: item.arguments },
          { session: run.session, now: run.now, prepare },
        );
        const message: FunctionCallOutput = {
          type: 'function_call_output',
          call_id: item.call_id,
          output: formatToolContent(result, tool),
        };
        records.push({ callId: item.call_id, name: item.name, result, message });
      }
      return records;
    },
  };
  return Object.freeze(toolset);
}
