import { type FunctionTool, type RunContext, tool } from '@openai/agents';
import type { AnyTool, Clock, ToolFailure } from '@plankit/core';
import { AdapterError } from '../adapter-error.ts';
import { formatToolContent } from '../format-tool-content.ts';
import { clockOption } from '../host/clock-option.ts';
import { runHostCall } from '../host/run-host-call.ts';
import { toStrictJsonSchema } from '../host/strict-schema/to-strict-json-schema.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { openAIAgentsCallOrder, recordOpenAIAgentsCall } from './openai-agents-call-order.ts';
import { OpenAIAgentsToolError } from './openai-agents-tool-error.ts';

/** One call the Runner asks about before it runs it: see {@link OpenAIAgentsToolsOptions}. @public */
export interface OpenAIAgentsApprovalRequest<C> {
  /** The plankit tool the call is for. */
  readonly tool: AnyTool;
  /** The call's arguments as the model sent them, with strict-mode nulls read back as absent. */
  readonly args: unknown;
  /** The run's context; `runContext.context` is the object given to `run(agent, input, { context })`. */
  readonly runContext: RunContext<C>;
  /** The call's id in the model's response. */
  readonly callId: string | undefined;
}

/** Options of {@link toOpenAIAgentsTools}. @public */
export interface OpenAIAgentsToolsOptions<C> {
  /**
   * Where each call's session comes from: one `Session` (one conversation), or a resolver
   * called per call with the run's `RunContext`, whose `context` names the conversation (a
   * pool's `resolver((run) => run.context.conversationId)`). A call whose session cannot be
   * resolved is refused (`session_unresolved`, `conversation_id_invalid`, ...), never run on a
   * shared default.
   */
  readonly session: SessionSource<RunContext<C>>;
  /** Where each call's time comes from, in epoch milliseconds; the session's clock by default. */
  readonly clock?: Clock | undefined;
  /**
   * Where each call's time comes from.
   *
   * @deprecated Renamed `clock`, the name every plankit time source has; `now` is only ever a
   * number. This alias goes away in the next minor release.
   */
  readonly now?: Clock | undefined;
  /**
   * Strict mode, for all tools or per tool: the tool is `strict` with a schema rewritten for it
   * (every key required, optional ones nullable, objects closed), and the model's `null` for an
   * optional field is read back as absent. By default the tool's own
   * `strict` trait (plankit's planning tools declare it), off for tools that declare none.
   */
  readonly strict?: boolean | ((tool: AnyTool) => boolean) | undefined;
  /**
   * Whether a call waits for a person's approval: the SDK then ends the run with an
   * interruption, and the call runs after `state.approve(item)` and a new `run(agent, state)`
   * (or is refused after `state.reject(item)`). A function decides per call, synchronously (the
   * calls of one response are ordered before any of them runs); map plankit's interaction
   * policy with `planningApprovalCheckpoint` and `@plankit/controller`'s `approvalRequired`.
   * Never by default.
   */
  readonly needsApproval?:
    | boolean
    | ((request: OpenAIAgentsApprovalRequest<C>) => boolean)
    | undefined;
  /**
   * How long a call waits for an earlier call of its response that the Runner started but
   * that has not reached the tool (a tool input guardrail refused it, or still holds it), in
   * milliseconds; 30,000 by default.
   */
  readonly orderTimeoutMs?: number | undefined;
}

function refusal(failure: ToolFailure): OpenAIAgentsToolError {
  return new OpenAIAgentsToolError(failure.error, failure.message);
}

/**
 * plankit tools as OpenAI Agents SDK function tools (`@openai/agents` 0.20), built with the
 * SDK's own `tool()`, for `new Agent({ tools })`. Each call:
 *
 * - resolves its session from the run's `RunContext` (see {@link OpenAIAgentsToolsOptions});
 * - runs `invokeTool` on it, in the order the model emitted the calls of its response, even
 *   though the Runner runs them concurrently;
 * - answers with the text the model reads; a refusal is thrown as an
 *   {@link OpenAIAgentsToolError}, which the tool's `errorFunction` hands to the model as
 *   plankit's `Tool validation failed: ...` text.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'planner', tools: toOpenAIAgentsTools(planning.tools(), { session: pool.resolver((run: RunContext<{ conversationId: string }>) => run.context.conversationId) }) });
 * ```
 * @throws AdapterError `tools_invalid` when `tools` is not an array; `schema_unsupported`
 *   when a strict tool's schema cannot be expressed in strict mode
 * @throws PlankitError `argument_invalid` when `options.clock` (or `now`) is not a function, or
 *   both are given
 * @public
 */
export function toOpenAIAgentsTools<C = unknown>(
  tools: readonly AnyTool[],
  options: OpenAIAgentsToolsOptions<C>,
): FunctionTool<C>[] {
  if (!Array.isArray(tools))
    throw new AdapterError(
      'tools_invalid',
      'toOpenAIAgentsTools: tools must be an array of plankit tools.',
    );
  const clock = clockOption('toOpenAIAgentsTools', options);
  const strictOf = (definition: AnyTool): boolean =>
    typeof options.strict === 'function'
      ? options.strict(definition)
      : (options.strict ?? definition.traits?.strict === true);
  return tools.map((definition): FunctionTool<C> => {
    const strict = strictOf(definition);
    const converted = strict ? toStrictJsonSchema(toolJsonSchema(definition)) : undefined;
    const schema = converted?.schema ?? toolJsonSchema(definition);
    const restore = (args: unknown): unknown =>
      converted === undefined ? args : converted.restore(args);
    const decide = options.needsApproval;
    const built = tool<never, C>({
      name: definition.name,
      description: definition.description,
      // The SDK types JSON Schema parameters by their literal shape; ours is checked above.
      parameters: schema as never,
      strict: strict as never,
      // Always a policy, even when nothing needs approval: the Runner asks it for each call in
      // the response's order before any call runs, which is how the calls learn their order.
      needsApproval: async (runContext, input, callId) => {
        const ask =
          typeof decide === 'function'
            ? decide({
                tool: definition,
                args: restore(input),
                runContext: runContext as RunContext<C>,
                callId,
              })
            : decide === true;
        if (!ask && callId !== undefined) recordOpenAIAgentsCall(runContext, callId);
        return ask;
      },
      execute: async (input, runContext, details) => {
        const context = runContext as RunContext<C>;
        const { tool: ran, result } = await runHostCall({
          tools,
          source: options.session,
          context: { ok: true, value: context },
          call: { name: definition.name, arguments: input, parsed: true },
          now: clock?.(),
          prepare: converted === undefined ? undefined : (args) => converted.restore(args),
          order: (conversation) =>
            openAIAgentsCallOrder(conversation, context, details?.toolCall?.callId),
          orderTimeoutMs: options.orderTimeoutMs,
        });
        if (!result.success) throw refusal(result);
        return formatToolContent(result, ran);
      },
      errorFunction: (_runContext, error) => {
        if (OpenAIAgentsToolError.isInstance(error)) return error.message;
        throw error;
      },
    });
    return built as unknown as FunctionTool<C>;
  });
}
