import { type AnyTool, Session, type ToolSuccess } from '@plankit/core';
import { invalidArgument } from '@plankit/core/internal-unstable';
import { type FlexibleSchema, jsonSchema } from 'ai';
import { conversationOf } from '../host/conversation.ts';
import { formatToolContent } from '../host/format-tool-content.ts';
import type { HostToolOptions } from '../host/host-tool-options.ts';
import { openAIStrictSchema } from '../host/openai-strict-schema.ts';
import { prepareHostTools } from '../host/prepare-host-tools.ts';
import { runHostCall } from '../host/run-host-call.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import { announceAISDKCall, orderOfAISDKCall } from './ai-sdk-call-order.ts';
import { type AISDKContext, toolCallContext } from './ai-sdk-context.ts';
import { AISDKToolError } from './ai-sdk-tool-error.ts';
import { rememberPlankitTool } from './plankit-tool-of.ts';

// The AI SDK's JSON Schema type, without depending on @types/json-schema.
type AISDKJsonSchema = Exclude<
  Parameters<typeof jsonSchema>[0],
  PromiseLike<unknown> | (() => unknown)
>;

/** Options of {@link toAISDKTools}; `C` is the app's context type. @public */
export interface AISDKToolsOptions<C = unknown> extends HostToolOptions {
  /**
   * The session the tools run against: one `Session` (one conversation), or a resolver called
   * for each call with the app's context (`experimental_context` in `ai` 6, the tool's
   * `context` in `ai` 7), such as a session pool's `resolver`. A call the resolver cannot
   * serve is refused (`session_unresolved`, `conversation_id_invalid`, ...) as an
   * {@link AISDKToolError} the model reads; there is no shared fallback session.
   */
  readonly session: SessionSource<AISDKContext<C>>;
  /**
   * `ai` 7 only: the `contextSchema` every tool declares, so `ai` 7 validates (and may
   * transform) each tool's `context` before the tool runs. A context the schema rejects is
   * `ai` 7's own `TypeValidationError`, thrown by `generateText` / `streamText` (a programmer
   * error, not a refusal); leave the identity optional in the schema to have a missing one
   * refused as `session_unresolved` instead. `ai` 6 ignores it.
   */
  readonly contextSchema?: FlexibleSchema<C> | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'session',
  'contextSchema',
  'strict',
  'clock',
  'orderTimeoutMs',
  'durability',
]);

/** What an AI SDK tool built by {@link toAISDKTools} returns from `execute`. @public */
export interface AISDKToolOutput {
  /** The plankit result; refusals are thrown as {@link AISDKToolError} instead. */
  readonly result: ToolSuccess<unknown>;
  /** The text the model reads. */
  readonly content: string;
}

/**
 * What the adapter reads from the AI SDK's `execute` and `onInputAvailable` options: the
 * fields `ai` 6 and `ai` 7 share (`experimental_context` in 6, the tool's `context` in 7).
 *
 * @public
 */
export interface AISDKCallOptions {
  /** The call's id in the model's response. */
  readonly toolCallId: string;
  /** The step's messages. */
  readonly messages: object;
  /** `ai` 7: the tool's entry of `toolsContext`. */
  readonly context?: unknown;
  /** `ai` 6: the app's context. */
  readonly experimental_context?: unknown;
}

/**
 * One tool as {@link toAISDKTools} builds it: an AI SDK function tool whose context is `C`.
 * Declared here rather than as the SDK's `Tool` so that `ai` 7 reads the context type from
 * `contextSchema` (its only inference site) and accepts `toolsContext` for these tools;
 * `ai` 6 takes it as a plain `Tool`.
 *
 * @public
 */
export interface AISDKTool<C = unknown> {
  /** The tool's description, the model reads. */
  readonly description?: string;
  /** The tool's `title` trait, when it declares one: for the app's UI, not sent to the model. */
  readonly title?: string;
  /** The JSON Schema of the tool's input (strict-mode form when strict). */
  readonly inputSchema: FlexibleSchema<unknown>;
  /** Whether the tool is offered in strict mode. */
  readonly strict?: boolean;
  /** `ai` 7: the schema of the tool's context, when given as `contextSchema`. */
  readonly contextSchema?: FlexibleSchema<C>;
  /** Announces the call in model order; the SDK runs it in emission order. */
  readonly onInputAvailable: (options: AISDKCallOptions) => Promise<void>;
  /** Runs the call; a refusal throws {@link AISDKToolError}. */
  readonly execute: (input: unknown, options: AISDKCallOptions) => Promise<AISDKToolOutput>;
  /** The text the model reads. */
  readonly toModelOutput: (options: { readonly output: AISDKToolOutput }) => {
    readonly type: 'text';
    readonly value: string;
  };
}

/**
 * plankit tools as Vercel AI SDK tools (`ai` 6 or 7), keyed by name, for `generateText` /
 * `streamText`. Each `execute` runs `invokeTool` on the session:
 *
 * - a success returns `{ result, content }`, and the model reads `content`;
 * - a refusal throws an {@link AISDKToolError} whose message is plankit's
 *   `Tool validation failed: ...` text, so the SDK records a `tool-error` part and the model
 *   reads that text as an `error-text` output.
 *
 * The session is `options.session`, or what its resolver returns for the call's context
 * (`experimental_context` in `ai` 6; in `ai` 7 the tool's `context`, see
 * {@link toAISDKToolsContext}); a call it cannot serve is refused as an {@link AISDKToolError}
 * (`session_unresolved`, ...), never run against a shared session.
 *
 * The calls of one step apply in the order the model emitted them, whatever order the SDK
 * reaches `execute` in: `onInputAvailable`, which the SDK runs in emission order, announces
 * each call into its conversation's session. The AI SDK's own input validation is bypassed so
 * plankit's messages reach the model.
 *
 * The record has no prototype, so a call to a name such as `constructor` or `__proto__` finds
 * no tool and the SDK answers it as an unavailable tool (spread into a plain object, it has
 * one again).
 *
 * @example
 * ```ts
 * const pool = createSessionPool({ store: new FileStore() });
 * const tools = toAISDKTools(createPlanningTools(new Session()), {
 *   session: pool.resolver(({ context }: AISDKContext<{ chatId: string }>) => context?.chatId),
 * });
 * const result = await generateText({ model, prompt, tools, experimental_context: { chatId: 'chat-1' } });
 * ```
 * @throws PlankitError `argument_invalid` when `options.session` is neither a Session nor a
 *   function, `options.clock` is not a function, or an option is not one it takes
 * @throws AdapterError `tools_invalid` when `tools` is not an array; `schema_unsupported`
 *   when a strict tool's schema cannot be expressed in strict mode
 * @public
 */
export function toAISDKTools<C = unknown>(
  tools: readonly AnyTool[],
  options: AISDKToolsOptions<C>,
): Record<string, AISDKTool<C>> {
  const { offered, clock, prepare } = prepareHostTools(tools, options, {
    where: 'toAISDKTools',
    keys: OPTION_KEYS,
    strictSchema: openAIStrictSchema,
  });
  const source = options.session;
  if (!(source instanceof Session) && typeof source !== 'function')
    throw invalidArgument(
      'toAISDKTools',
      'options.session',
      'must be a Session or a resolver function',
    );
  const { contextSchema } = options;
  const entries = offered.map(({ tool: definition, strict, schema }): [string, AISDKTool<C>] => {
    const title = definition.traits?.title;
    const aiTool: AISDKTool<C> = {
      description: definition.description,
      ...(title === undefined ? {} : { title }),
      inputSchema: jsonSchema<unknown>(schema as AISDKJsonSchema),
      strict,
      ...(contextSchema === undefined ? {} : { contextSchema }),
      // Both majors await this hook call by call in emission order, so announcing here keeps
      // the order. Naming a pooled conversation loads nothing; a call that names none is
      // refused by `execute`, not here, where a throw would fail the whole generation.
      onInputAvailable: async (call: AISDKCallOptions) => {
        const found = await conversationOf(source, toolCallContext<C>(call));
        if (found.ok) announceAISDKCall(found.value.key, call.messages, call.toolCallId);
      },
      execute: async (input: unknown, call: AISDKCallOptions): Promise<AISDKToolOutput> => {
        const { tool, result } = await runHostCall({
          tools,
          source,
          context: { ok: true, value: toolCallContext<C>(call) },
          call: { name: definition.name, arguments: input, parsed: true, id: call.toolCallId },
          now: clock?.(),
          prepare,
          order: (conversation) => orderOfAISDKCall(conversation, call.messages, call.toolCallId),
          orderTimeoutMs: options.orderTimeoutMs,
          durability: options.durability,
        });
        if (!result.success) throw new AISDKToolError(result);
        return { result, content: formatToolContent(result, tool) };
      },
      toModelOutput: ({ output }: { readonly output: AISDKToolOutput }) => ({
        type: 'text',
        value: output.content,
      }),
    };
    rememberPlankitTool(aiTool, definition);
    return [definition.name, aiTool];
  });
  // Without a prototype: the SDK looks a called name up as `tools[name]`, and a model calling
  // `constructor` or `__proto__` must find no tool there, not Object.prototype's.
  return Object.assign(
    Object.create(null) as Record<string, AISDKTool<C>>,
    Object.fromEntries(entries),
  );
}
