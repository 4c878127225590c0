import { ToolMessage } from '@langchain/core/messages';
import { type DynamicStructuredTool, tool as langChainTool } from '@langchain/core/tools';
import type { AnyTool, Result } from '@plankit/core';
import { formatToolContent } from '../host/format-tool-content.ts';
import type { HostToolOptions } from '../host/host-tool-options.ts';
import { announceInConversation } from '../host/model-order.ts';
import { prepareHostTools } from '../host/prepare-host-tools.ts';
import { runHostCall } from '../host/run-host-call.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { acceptingSchema, type ToolConfig } from './accepting-schema.ts';
import { findLangChainTurn } from './find-langchain-turn.ts';
import { type LangChainContext, langChainContext } from './langchain-context.ts';

/** Options of {@link toLangChainTools}. @public */
export interface LangChainToolsOptions
  extends Pick<HostToolOptions, 'clock' | 'orderTimeoutMs' | 'durability'> {
  /**
   * Where each call's session comes from: one `Session` (one conversation), or a resolver
   * called per call with the call's {@link LangChainContext} (its `thread_id` and checkpoint),
   * such as a pool's `resolver((ctx: LangChainContext) => ctx.threadId)`. With a resolver, a
   * call whose run names no `thread_id`, or whose session cannot be resolved, is refused
   * (`session_unresolved`, `conversation_id_invalid`, ...): never run on a shared default.
   */
  readonly session: SessionSource<LangChainContext>;
  /**
   * How long a call waits for an earlier call of its `AIMessage` that the host has not started
   * (a middleware answered it instead, or a hook holds it), in milliseconds; 30,000 by default.
   */
  readonly orderTimeoutMs?: number | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'session',
  'clock',
  'orderTimeoutMs',
  'durability',
]);

/** The context of a call, or the refusal the model reads. */
function contextOf(
  source: SessionSource<LangChainContext>,
  config: unknown,
): Result<LangChainContext, SessionResolveError> {
  const context = langChainContext(config);
  // A resolver needs the conversation's name; a run without one never falls back to a default.
  if (typeof source === 'function' && context.threadId === undefined)
    return {
      ok: false,
      error: new SessionResolveError(
        'session_unresolved',
        'The run names no conversation: pass config.configurable.thread_id (a non-empty string) to invoke or stream.',
        { field: 'configurable.thread_id' },
      ),
    };
  return { ok: true, value: context };
}

/**
 * plankit tools as LangChain.js structured tools, for `model.bindTools(...)`, LangGraph's
 * `ToolNode` and `createAgent` from `langchain`. Invoked with a tool call, each returns a
 * `ToolMessage` for that call's id, with `status: 'error'` and plankit's
 * `Tool validation failed: ...` text when plankit refused it (refusals are never thrown);
 * invoked with plain arguments, the message text.
 *
 * Sessions: `session` is one `Session`, or a resolver called once per call with the call's
 * {@link LangChainContext}, so each LangGraph thread gets its own plan (see
 * {@link LangChainToolsOptions.session}). A refused resolution answers the call with a
 * `status: 'error'` `ToolMessage` reading `Tool validation failed: ...`.
 *
 * Model order: a `ToolNode` runs an `AIMessage`'s tool calls concurrently. Each tool reads the
 * graph state the host passes it (`config.state`, or the running task's input), finds the
 * `AIMessage` holding its call, announces that message's calls of these tools in emission
 * order, and waits for the ones before it; a retried call (a `retryPolicy` re-running the
 * node) applies once and answers its first outcome. Invoked directly, without a graph state,
 * calls apply in arrival order: await them one at a time, or run them through a `ToolNode`.
 *
 * @example
 * ```ts
 * const pool = createSessionPool({ store: new MemoryStore() });
 * const tools = toLangChainTools(createPlanningTools(new Session()), {
 *   session: pool.resolver((ctx: LangChainContext) => ctx.threadId),
 * });
 * const agent = createAgent({ model, tools });
 * await agent.invoke(
 *   { messages: [new HumanMessage('Plan the release.')] },
 *   { configurable: { thread_id: 'release-42' } },
 * );
 * ```
 * @throws AdapterError `tools_invalid` when `tools` is not an array
 * @throws PlankitError `argument_invalid` when `options.clock` is not a function, or an option
 *   is not one it takes
 * @public
 */
export function toLangChainTools(
  tools: readonly AnyTool[],
  options: LangChainToolsOptions,
): DynamicStructuredTool[] {
  const { clock } = prepareHostTools(tools, options, {
    where: 'toLangChainTools',
    keys: OPTION_KEYS,
    strictSchema: null,
  });
  const names = new Set(tools.map((tool) => tool.name));
  return tools.map(
    (definition) =>
      langChainTool(
        async (input: unknown, config?: ToolConfig) => {
          const id = config?.toolCall?.id;
          const found = id === undefined ? undefined : findLangChainTurn(config, id, names);
          const { tool, result } = await runHostCall({
            tools,
            source: options.session,
            context: contextOf(options.session, config),
            call: { name: definition.name, arguments: input, parsed: true, id },
            now: clock?.(),
            order:
              found === undefined || id === undefined
                ? undefined
                : (conversation) => {
                    announceInConversation(conversation, found.turn, found.ids);
                    return { turn: found.turn, id };
                  },
            orderTimeoutMs: options.orderTimeoutMs,
            durability: options.durability,
          });
          const content = formatToolContent(result, tool);
          if (id === undefined) return content;
          return new ToolMessage({
            content,
            tool_call_id: id,
            name: definition.name,
            status: result.success ? 'success' : 'error',
          });
        },
        {
          name: definition.name,
          description: definition.description,
          schema: acceptingSchema(definition),
        },
      ) as DynamicStructuredTool,
  );
}
