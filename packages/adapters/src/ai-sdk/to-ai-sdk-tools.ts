import type { AnyTool, Session, ToolSuccess } from '@plankit/core';
import { jsonSchema, type Tool } from 'ai';
import { AdapterError } from '../adapter-error.ts';
import { callTool } from '../call-tool.ts';
import { formatToolContent } from '../format-tool-content.ts';
import { toStrictJsonSchema } from '../openai/to-strict-json-schema.ts';
import { type JsonSchema, toolJsonSchema } from '../tool-json-schema.ts';
import { aisdkCallOrder, announceAISDKCall } from './ai-sdk-call-order.ts';
import { AISDKToolError } from './ai-sdk-tool-error.ts';

// The AI SDK's JSON Schema type, without depending on @types/json-schema.
type AISDKJsonSchema = Exclude<
  Parameters<typeof jsonSchema>[0],
  PromiseLike<unknown> | (() => unknown)
>;

/** Options of {@link toAISDKTools}. @public */
export interface AISDKToolsOptions {
  /** The session the tools run against. */
  readonly session: Session;
  /** The clock for each call, in epoch milliseconds; the session's clock by default. */
  readonly now?: (() => number) | undefined;
  /**
   * Strict mode, for all tools or per tool: the tool carries `strict: true` and a schema
   * rewritten for it (every key required, optional ones nullable, objects closed), and the
   * model's `null` for an optional field is read back as absent. By default on for the
   * planning tools (names starting with `planning_`), off for the others.
   */
  readonly strict?: boolean | ((tool: AnyTool) => boolean) | undefined;
  /**
   * How long a call waits for an earlier call of its step that the SDK announced but has not
   * run (one awaiting approval, for example), in milliseconds; 30,000 by default.
   */
  readonly orderTimeoutMs?: number | undefined;
}

/** What an AI SDK tool built by {@link toAISDKTools} returns from `execute`. @public */
export interface AISDKToolOutput {
  /** The plankit result; refusals are thrown as {@link AISDKToolError} instead. */
  readonly result: ToolSuccess<unknown>;
  /** The text the model reads. */
  readonly content: string;
}

/**
 * What the adapter reads from the AI SDK's `execute` and `onInputAvailable` options: the
 * fields `ai` 6 and `ai` 7 share (`experimental_context` and `context` are left alone).
 */
interface AISDKCallOptions {
  readonly toolCallId: string;
  readonly messages: object;
}

const PLANNING_PREFIX = 'planning_';

/**
 * plankit tools as Vercel AI SDK tools (`ai` 6 or 7), keyed by name, for `generateText` /
 * `streamText`. Each `execute` runs `invokeTool` on the session:
 *
 * - a success returns `{ result, content }`, and the model reads `content`;
 * - a refusal throws an {@link AISDKToolError} whose message is plankit's
 *   `Tool validation failed: ...` text, so the SDK records a `tool-error` part and the model
 *   reads that text as an `error-text` output.
 *
 * The calls of one step apply in the order the model emitted them, whatever order the SDK
 * reaches `execute` in: `onInputAvailable`, which the SDK runs in emission order, announces
 * each call. The AI SDK's own input validation is bypassed so plankit's messages reach the
 * model.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, system, prompt, tools: toAISDKTools(planning.tools(), { session }), stopWhen: stepCountIs(10) });
 * ```
 * @throws AdapterError `tools_invalid` when `tools` is not an array; `schema_unsupported`
 *   when a strict tool's schema cannot be expressed in strict mode
 * @public
 */
export function toAISDKTools(
  tools: readonly AnyTool[],
  options: AISDKToolsOptions,
): Record<string, Tool<unknown, AISDKToolOutput>> {
  if (!Array.isArray(tools))
    throw new AdapterError(
      'tools_invalid',
      'toAISDKTools: tools must be an array of plankit tools.',
    );
  const { session } = options;
  const strictOf = (tool: AnyTool): boolean =>
    typeof options.strict === 'function'
      ? options.strict(tool)
      : (options.strict ?? tool.name.startsWith(PLANNING_PREFIX));
  const entries = tools.map((definition): [string, Tool<unknown, AISDKToolOutput>] => {
    const strict = strictOf(definition);
    const converted = strict ? toStrictJsonSchema(toolJsonSchema(definition)) : undefined;
    const schema: JsonSchema = converted?.schema ?? toolJsonSchema(definition);
    const prepare =
      converted === undefined
        ? undefined
        : (args: Readonly<Record<string, unknown>>) => converted.restore(args);
    const aiTool: Tool<unknown, AISDKToolOutput> = {
      description: definition.description,
      inputSchema: jsonSchema<unknown>(schema as AISDKJsonSchema),
      strict,
      onInputAvailable: (call: AISDKCallOptions) => {
        announceAISDKCall(session, call.messages, call.toolCallId);
      },
      execute: async (input: unknown, call: AISDKCallOptions): Promise<AISDKToolOutput> => {
        const { tool, result } = await callTool(
          tools,
          { name: definition.name, arguments: input },
          {
            session,
            now: options.now?.(),
            prepare,
            order: aisdkCallOrder(session, call.messages, call.toolCallId),
            orderTimeoutMs: options.orderTimeoutMs,
          },
        );
        if (!result.success) throw new AISDKToolError(result);
        return { result, content: formatToolContent(result, tool) };
      },
      toModelOutput: ({ output }: { readonly output: AISDKToolOutput }) => ({
        type: 'text',
        value: output.content,
      }),
    };
    return [definition.name, aiTool];
  });
  return Object.fromEntries(entries);
}
