import { type FunctionTool, type RunContext, tool } from '@openai/agents';
import type { AnyTool, ToolFailure } from '@plankit/core';
import { formatToolContent } from '../host/format-tool-content.ts';
import type { HostToolOptions } from '../host/host-tool-options.ts';
import { openAIStrictSchema } from '../host/openai-strict-schema.ts';
import { prepareHostTools } from '../host/prepare-host-tools.ts';
import { runHostCall } from '../host/run-host-call.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
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
export interface OpenAIAgentsToolsOptions<C> extends HostToolOptions {
  /**
   * Where each call's session comes from: one `Session` (one conversation), or a resolver
   * called per call with the run's `RunContext`, whose `context` names the conversation (a
   * pool's `resolver((run) => run.context.conversationId)`). A call whose session cannot be
   * resolved is refused (`session_unresolved`, `conversation_id_invalid`, ...), never run on a
   * shared default.
   */
  readonly session: SessionSource<RunContext<C>>;
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
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'session',
  'strict',
  'clock',
  'needsApproval',
  'orderTimeoutMs',
  'durability',
]);

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
 * @throws PlankitError `argument_invalid` when `options.clock` is not a function, or an option
 *   is not one it takes
 * @public
 */
export function toOpenAIAgentsTools<C = unknown>(
  tools: readonly AnyTool[],
  options: OpenAIAgentsToolsOptions<C>,
): FunctionTool<C>[] {
  const { offered, clock, prepare } = prepareHostTools(tools, options, {
    where: 'toOpenAIAgentsTools',
    keys: OPTION_KEYS,
    strictSchema: openAIStrictSchema,
  });
  return offered.map(({ tool: definition, strict, schema, restore }): FunctionTool<C> => {
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
          call: {
            name: definition.name,
            arguments: input,
            parsed: true,
            id: details?.toolCall?.callId,
          },
          now: clock?.(),
          prepare,
          order: (conversation) =>
            openAIAgentsCallOrder(conversation, context, details?.toolCall?.callId),
          orderTimeoutMs: options.orderTimeoutMs,
          durability: options.durability,
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
