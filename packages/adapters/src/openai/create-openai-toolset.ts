import type { AnyTool, ToolFailure, ToolResult } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageToolCall,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses';
import { formatToolContent } from '../host/format-tool-content.ts';
import type { HostToolOptions } from '../host/host-tool-options.ts';
import {
  type ConversationKeyContext,
  keyedContext,
  type SessionRefusal,
} from '../host/keyed-context.ts';
import { openAIStrictSchema } from '../host/openai-strict-schema.ts';
import { prepareHostTools } from '../host/prepare-host-tools.ts';
import { callFailure, malformedCall as malformed, quotedName } from '../host/refusal.ts';
import { runHostCall } from '../host/run-host-call.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';

/** Options of {@link createOpenAIToolset}. @public */
export interface OpenAIToolsetOptions extends Pick<HostToolOptions, 'strict' | 'durability'> {}

const OPTION_KEYS: ReadonlySet<string> = new Set(['strict', 'durability']);

/** Options of the run methods of an {@link OpenAIToolset}. @public */
export interface OpenAIRunOptions {
  /**
   * The session the calls run against: a `Session` (one conversation), or a resolver called
   * once per call with `{ key }` (a pool's `resolver((context) => context.key)`), which names
   * the conversation.
   */
  readonly session: SessionSource<ConversationKeyContext>;
  /**
   * The conversation these calls belong to, for a resolver `session` (ignored with a
   * `Session`). Checked as a conversation id before the resolver sees it: a missing key
   * (`session_unresolved`) or a hostile one (`conversation_id_invalid`: a path, NUL, over 128
   * characters) refuses every call of the batch, and nothing runs on a shared default.
   */
  readonly key?: string | undefined;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
}

/** One executed call: the plankit result beside the message for the model. @public */
export interface OpenAICallRecord<M> {
  /** The call id the model gave. */
  readonly callId: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /**
   * The plankit result (for the host: `error.code`, `error.field`), or the refusal of a call
   * whose session could not be resolved.
   */
  readonly result: ToolResult<unknown> | SessionRefusal;
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
   * Runs `message.tool_calls` in order, returning one `role: "tool"` message per entry, in
   * order. Never throws and never stops halfway: a malformed entry (`null`, no `function` or
   * name, wrong types, a `type` other than `function`; a missing `type` is read as
   * `function`, as some OpenAI-compatible servers omit it) becomes a refusal record for that
   * entry, and the calls after it still run. Anything but an array reads as no calls. Each
   * call resolves its session from `options`; a call whose session cannot be resolved is a
   * refusal record (`session_unresolved`, `conversation_id_invalid`, ...).
   */
  runChatToolCalls(
    toolCalls: readonly ChatCompletionMessageToolCall[] | null | undefined,
    options: OpenAIRunOptions,
  ): Promise<OpenAICallRecord<ChatCompletionToolMessageParam>[]>;
  /**
   * Runs the `function_call` items of `response.output` in order (other items are skipped),
   * returning one `function_call_output` item per call. An item is a function call when its
   * `type` is `function_call`, or when it has no `type` but a `call_id`. Never throws and
   * never stops halfway: a malformed call (no name, wrong types), or one whose session cannot
   * be resolved, becomes a refusal record.
   */
  runResponsesFunctionCalls(
    output: readonly unknown[],
    options: OpenAIRunOptions,
  ): Promise<OpenAICallRecord<FunctionCallOutput>[]>;
}

function isFunctionCall(item: unknown): item is Record<string, unknown> {
  if (!isRecord(item)) return false;
  const type = item['type'];
  return type === 'function_call' || (type === undefined && item['call_id'] !== undefined);
}

/** The model's text as a refusal quotes it: clipped, with control characters escaped. */
const shortText = (value: unknown): string => (typeof value === 'string' ? quotedName(value) : '');

/** Reads one Chat Completions tool call: the id, the name and the raw arguments, or why not. */
function readChatCall(
  entry: unknown,
  index: number,
):
  | { id: string; name: string; arguments: unknown }
  | { id: string; name: string; problem: ToolFailure } {
  if (!isRecord(entry))
    return {
      id: '',
      name: '',
      problem: malformed(`Tool call ${index} is not an object.`, `tool_calls[${index}]`),
    };
  const id = typeof entry['id'] === 'string' ? entry['id'] : '';
  const type = entry['type'];
  if (type === 'custom') {
    const custom = entry['custom'];
    const name = isRecord(custom) && typeof custom['name'] === 'string' ? custom['name'] : '';
    return {
      id,
      name,
      problem: malformed(
        `Unknown tool '${shortText(name)}': tool call ${index} is a custom tool call; plankit tools take function calls.`,
        `tool_calls[${index}].custom.name`,
        'tool_unknown',
      ),
    };
  }
  if (type !== undefined && type !== 'function')
    return {
      id,
      name: '',
      problem: malformed(
        `Tool call ${index} has the type '${shortText(type)}'; only 'function' calls run.`,
        `tool_calls[${index}].type`,
      ),
    };
  const fn = entry['function'];
  if (!isRecord(fn) || typeof fn['name'] !== 'string' || fn['name'] === '')
    return {
      id,
      name: '',
      problem: malformed(
        `Tool call ${index} has no function name.`,
        `tool_calls[${index}].function.name`,
      ),
    };
  return { id, name: fn['name'], arguments: fn['arguments'] };
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
 * One toolset for many conversations, each with its own plan, through a session pool:
 * ```ts
 * const pool = createSessionPool({ store: new FileStore() });
 * const session = pool.resolver((context: { key: string }) => context.key);
 * const replies = await toolset.runChatToolCalls(message.tool_calls, { session, key: chatId });
 * ```
 * @throws AdapterError `tools_invalid` when `tools` is not an array; `schema_unsupported` when a
 *   strict tool's schema cannot be expressed in strict mode
 * @throws PlankitError `argument_invalid` for an option it does not take
 * @public
 */
export function createOpenAIToolset(
  tools: readonly AnyTool[],
  options: OpenAIToolsetOptions = {},
): OpenAIToolset {
  const { offered, prepare } = prepareHostTools(tools, options, {
    where: 'createOpenAIToolset',
    keys: OPTION_KEYS,
    strictSchema: openAIStrictSchema,
  });
  // Read once: \`run\`'s own options shadow the toolset's below.
  const { durability } = options;
  const chatTools = offered.map(
    ({ tool, strict, schema }): ChatCompletionFunctionTool => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: schema, strict },
    }),
  );
  const responsesTools = offered.map(
    ({ tool, strict, schema }): FunctionTool => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: schema,
      strict,
    }),
  );

  const run = async (
    name: string,
    raw: unknown,
    options: OpenAIRunOptions,
    id: string,
  ): Promise<{ tool: AnyTool | undefined; result: ToolResult<unknown> | SessionRefusal }> => {
    try {
      // The session is held for the call alone: a pool may evict it between calls.
      return await runHostCall({
        tools,
        source: options.session,
        context: keyedContext(options.session, options.key),
        call: { name, arguments: raw, id },
        now: options.now,
        prepare,
        durability,
      });
    } catch (error) {
      // The pipeline answers what the model sent with results; a throw here is a host or tool
      // bug, reported for this call alone so the rest of the batch still runs.
      return { tool: undefined, result: callFailure(name, error) };
    }
  };

  const toolset: OpenAIToolset = {
    chatTools: Object.freeze(chatTools),
    responsesTools: Object.freeze(responsesTools),
    async runChatToolCalls(toolCalls, options) {
      const records: OpenAICallRecord<ChatCompletionToolMessageParam>[] = [];
      const entries: readonly unknown[] = Array.isArray(toolCalls) ? toolCalls : [];
      for (let index = 0; index < entries.length; index++) {
        const call = readChatCall(entries[index], index);
        const { tool, result } =
          'problem' in call
            ? { tool: undefined, result: call.problem }
            : await run(call.name, call.arguments, options, call.id);
        records.push({
          callId: call.id,
          name: call.name,
          result,
          message: {
            role: 'tool',
            tool_call_id: call.id,
            content: result.success ? formatToolContent(result, tool) : result.message,
          },
        });
      }
      return records;
    },
    async runResponsesFunctionCalls(output, options) {
      const records: OpenAICallRecord<FunctionCallOutput>[] = [];
      const items: readonly unknown[] = Array.isArray(output) ? output : [];
      for (let index = 0; index < items.length; index++) {
        const item = items[index];
        if (!isFunctionCall(item)) continue;
        const callId = typeof item['call_id'] === 'string' ? item['call_id'] : '';
        const name = typeof item['name'] === 'string' ? item['name'] : '';
        const { tool, result } =
          name === ''
            ? {
                tool: undefined,
                result: malformed(`Function call ${index} has no name.`, `output[${index}].name`),
              }
            : await run(name, item['arguments'], options, callId);
        const message: FunctionCallOutput = {
          type: 'function_call_output',
          call_id: callId,
          output: result.success ? formatToolContent(result, tool) : result.message,
        };
        records.push({ callId, name, result, message });
      }
      return records;
    },
  };
  return Object.freeze(toolset);
}
