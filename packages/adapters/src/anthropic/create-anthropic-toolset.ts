import type { Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { AnyTool, Session, ToolResult } from '@plankit/core';
import { AdapterError } from '../adapter-error.ts';
import { callTool } from '../call-tool.ts';
import { formatToolContent } from '../format-tool-content.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';

/** Options of {@link AnthropicToolset.runToolUses}. @public */
export interface AnthropicRunOptions {
  /** The session the tools run against. */
  readonly session: Session;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
}

/** One executed `tool_use`: the plankit result beside the `tool_result` block. @public */
export interface AnthropicCallRecord {
  /** The `tool_use` id. */
  readonly toolUseId: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /** The plankit result (for the host: `error.code`, `error.field`). */
  readonly result: ToolResult<unknown>;
  /** The block to send back in the next user message. */
  readonly block: ToolResultBlockParam;
}

/** plankit tools in the Anthropic Messages API's shapes. @public */
export interface AnthropicToolset {
  /** Messages API `tools` (`name`, `description`, `input_schema`). */
  readonly tools: readonly Tool[];
  /**
   * Runs the `tool_use` blocks of a response's `content` in order (other blocks are
   * skipped), returning one `tool_result` block per call, with `is_error: true` on failure.
   * Never throws for what the model sent.
   */
  runToolUses(
    content: readonly unknown[],
    options: AnthropicRunOptions,
  ): Promise<AnthropicCallRecord[]>;
}

interface ToolUse {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

function isToolUse(block: unknown): block is ToolUse {
  if (typeof block !== 'object' || block === null) return false;
  const record = block as Record<string, unknown>;
  return record['type'] === 'tool_use' && typeof record['id'] === 'string';
}

/**
 * Converts tools to the Anthropic Messages API's format.
 *
 * @example
 * ```ts
 * const toolset = createAnthropicToolset(planning.tools());
 * const reply = await anthropic.messages.create({ model, max_tokens, system, messages, tools: [...toolset.tools] });
 * const results = await toolset.runToolUses(reply.content, { session });
 * messages.push({ role: 'assistant', content: reply.content }, { role: 'user', content: results.map((r) => r.block) });
 * ```
 * @public
 */
export function createAnthropicToolset(tools: readonly AnyTool[]): AnthropicToolset {
  if (!Array.isArray(tools))
    throw new AdapterError(
      'tools_invalid',
      'createAnthropicToolset: tools must be an array of plankit tools.',
    );
  const definitions = tools.map(
    (tool): Tool => ({
      name: tool.name,
      description: tool.description,
      input_schema: toolJsonSchema(tool) as Tool['input_schema'],
    }),
  );
  const toolset: AnthropicToolset = {
    tools: Object.freeze(definitions),
    async runToolUses(content, run) {
      const records: AnthropicCallRecord[] = [];
      for (const block of content ?? []) {
        if (!isToolUse(block)) continue;
        const { tool, result } = await callTool(
          tools,
          { name: block.name, arguments: block.input },
          run,
        );
        const reply: ToolResultBlockParam = {
          type: 'tool_result',
          tool_use_id: block.id,
          content: formatToolContent(result, tool),
          ...(result.success ? {} : { is_error: true }),
        };
        records.push({ toolUseId: block.id, name: block.name, result, block: reply });
      }
      return records;
    },
  };
  return Object.freeze(toolset);
}
