import type { AnyTool, Session, ToolResult } from '@plankit/core';
import { tool as aiTool, jsonSchema, type Tool } from 'ai';
import { AdapterError } from '../adapter-error.ts';
import { callTool } from '../call-tool.ts';
import { formatToolContent } from '../format-tool-content.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';

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
}

/** What an AI SDK tool built by {@link toAISDKTools} returns from `execute`. @public */
export interface AISDKToolOutput {
  /** The plankit result. */
  readonly result: ToolResult<unknown>;
  /** The text the model reads. */
  readonly content: string;
}

/**
 * plankit tools as Vercel AI SDK tools, keyed by name, for `generateText` / `streamText`.
 * Each `execute` runs `invokeTool` on the session; the model reads the same text as in every
 * other format, and a refused call is sent as an `error-text` output the model can fix (the
 * AI SDK's own input validation is bypassed so plankit's messages reach the model).
 *
 * @example
 * ```ts
 * const result = await generateText({ model, system, prompt, tools: toAISDKTools(planning.tools(), { session }), stopWhen: stepCountIs(10) });
 * ```
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
  const entries = tools.map((definition): [string, Tool<unknown, AISDKToolOutput>] => [
    definition.name,
    aiTool<unknown, AISDKToolOutput>({
      description: definition.description,
      inputSchema: jsonSchema<unknown>(toolJsonSchema(definition) as AISDKJsonSchema),
      execute: async (input) => {
        const now = options.now?.();
        const { tool, result } = await callTool(
          tools,
          { name: definition.name, arguments: input },
          { session: options.session, now },
        );
        return { result, content: formatToolContent(result, tool) };
      },
      toModelOutput: ({ output }) =>
        output.result.success
          ? { type: 'text', value: output.content }
          : { type: 'error-text', value: output.content },
    }),
  ]);
  return Object.fromEntries(entries);
}
