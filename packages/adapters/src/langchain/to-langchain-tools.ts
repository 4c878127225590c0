import { ToolMessage } from '@langchain/core/messages';
import { type DynamicStructuredTool, tool as langChainTool } from '@langchain/core/tools';
import type { AnyTool, Session } from '@plankit/core';
import { AdapterError } from '../adapter-error.ts';
import { callTool } from '../call-tool.ts';
import { formatToolContent } from '../format-tool-content.ts';
import { advertisedSchema } from '../internal/advertised-schema.ts';

/** Options of {@link toLangChainTools}. @public */
export interface LangChainToolsOptions {
  /** The session the tools run against. */
  readonly session: Session;
  /** The clock for each call, in epoch milliseconds; the session's clock by default. */
  readonly now?: (() => number) | undefined;
}

/**
 * plankit tools as LangChain.js structured tools, for `model.bindTools(...)` and agents.
 * Invoked with a tool call, each returns a `ToolMessage` (status `error` when plankit refused
 * the call, with plankit's message); invoked with plain arguments, the message text.
 *
 * @example
 * ```ts
 * const tools = toLangChainTools(planning.tools(), { session });
 * const ai = await model.bindTools(tools).invoke(messages);
 * for (const call of ai.tool_calls ?? []) messages.push(await tools.find((t) => t.name === call.name)!.invoke(call));
 * ```
 * @public
 */
export function toLangChainTools(
  tools: readonly AnyTool[],
  options: LangChainToolsOptions,
): DynamicStructuredTool[] {
  if (!Array.isArray(tools))
    throw new AdapterError(
      'tools_invalid',
      'toLangChainTools: tools must be an array of plankit tools.',
    );
  return tools.map(
    (definition) =>
      langChainTool(
        async (input: unknown, config?: { toolCall?: { id?: string | undefined } | undefined }) => {
          const { tool, result } = await callTool(
            tools,
            { name: definition.name, arguments: input },
            { session: options.session, now: options.now?.() },
          );
          const content = formatToolContent(result, tool);
          const id = config?.toolCall?.id;
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
          schema: advertisedSchema(definition),
        },
      ) as DynamicStructuredTool,
  );
}
