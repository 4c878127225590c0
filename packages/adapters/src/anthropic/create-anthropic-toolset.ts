import type { Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { AnyTool, ToolFailure, ToolResult } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import { AdapterError } from '../adapter-error.ts';
import { formatToolContent } from '../host/format-tool-content.ts';
import type { HostToolOptions } from '../host/host-tool-options.ts';
import {
  type ConversationKeyContext,
  keyedContext,
  type SessionRefusal,
} from '../host/keyed-context.ts';
import { prepareHostTools } from '../host/prepare-host-tools.ts';
import { callFailure, malformedCall } from '../host/refusal.ts';
import { runHostCall } from '../host/run-host-call.ts';
import {
  type StrictJsonSchema,
  toStrictJsonSchema,
} from '../host/strict-schema/to-strict-json-schema.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';

/** Options of {@link createAnthropicToolset}. @public */
export interface AnthropicToolsetOptions extends Pick<HostToolOptions, 'strict' | 'durability'> {}

const OPTION_KEYS: ReadonlySet<string> = new Set(['strict', 'durability']);

/** Options of {@link AnthropicToolset.runToolUses}. @public */
export interface AnthropicRunOptions {
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
   * characters) refuses every call, and nothing runs on a shared default.
   */
  readonly key?: string | undefined;
  /** When, in epoch milliseconds; the session's clock by default. */
  readonly now?: number | undefined;
}

/** One executed `tool_use`: the plankit result beside the `tool_result` block. @public */
export interface AnthropicCallRecord {
  /** The `tool_use` id. */
  readonly toolUseId: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /**
   * The plankit result (for the host: `error.code`, `error.field`), or the refusal of a call
   * whose session could not be resolved.
   */
  readonly result: ToolResult<unknown> | SessionRefusal;
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
   * Never throws and never stops halfway: a malformed `tool_use` block (no name, wrong
   * types) becomes a refusal record for that block, and the blocks after it still run. Each
   * call resolves its session from `options`; a call whose session cannot be resolved is a
   * refusal record (`session_unresolved`, `conversation_id_invalid`, ...).
   */
  runToolUses(
    content: readonly unknown[],
    options: AnthropicRunOptions,
  ): Promise<AnthropicCallRecord[]>;
}

const refused = (message: string, field: string): ToolFailure => malformedCall(message, field);

// Keywords Anthropic's strict tool use does not support (its SDK moves them into descriptions);
// plankit refuses them instead of sending a looser schema than the tool validates.
const ANTHROPIC_UNSUPPORTED = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
];

function anthropicProblem(
  node: unknown,
  path: string,
): { path: string; keyword: string } | undefined {
  if (!isRecord(node)) return undefined;
  for (const keyword of ANTHROPIC_UNSUPPORTED)
    if (typeof node[keyword] === 'number') return { path, keyword };
  const minItems = node['minItems'];
  if (typeof minItems === 'number' && minItems > 1) return { path, keyword: 'minItems' };
  const children: [unknown, string][] = [];
  const join = (key: string) => (path === '' ? key : `${path}.${key}`);
  for (const group of ['properties', '$defs'])
    if (isRecord(node[group]))
      for (const [key, child] of Object.entries(node[group] as Record<string, unknown>))
        children.push([child, group === '$defs' ? `$defs.${key}` : join(key)]);
  if (Array.isArray(node['anyOf']))
    node['anyOf'].forEach((branch, index) => {
      children.push([branch, `${path}.anyOf[${index}]`]);
    });
  if (node['items'] !== undefined) children.push([node['items'], `${path}[]`]);
  for (const [child, childPath] of children) {
    const problem = anthropicProblem(child, childPath);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

// Annotations the OpenAI form keeps that Anthropic's strict tool use does not list (its SDK
// drops `$schema` and moves the rest into descriptions); they constrain nothing, so they go.
const ANTHROPIC_DROPPED = new Set(['$comment', 'examples', '$schema', '$id']);

/** `node` without {@link ANTHROPIC_DROPPED}, at every depth; frozen. */
function withoutAnnotations(node: unknown): unknown {
  if (Array.isArray(node)) return Object.freeze(node.map(withoutAnnotations));
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node)) {
    if (ANTHROPIC_DROPPED.has(key)) continue;
    const value = node[key];
    // Maps of schemas, a schema, or a list of schemas; `enum` and `const` are values.
    const schemas = ['properties', '$defs', 'definitions'].includes(key)
      ? isRecord(value)
        ? Object.freeze(
            Object.fromEntries(
              Object.entries(value).map(([name, child]) => [name, withoutAnnotations(child)]),
            ),
          )
        : value
      : key === 'items' || key === 'anyOf'
        ? withoutAnnotations(value)
        : value;
    Object.defineProperty(out, key, { value: schemas, enumerable: true });
  }
  return Object.freeze(out);
}

function strictSchemaFor(tool: AnyTool): StrictJsonSchema {
  let converted: StrictJsonSchema;
  try {
    converted = toStrictJsonSchema(toolJsonSchema(tool));
  } catch (error) {
    if (!AdapterError.isInstance(error)) throw error;
    throw new AdapterError(
      'schema_unsupported',
      `Tool '${tool.name}': ${error.message.replace('OpenAI strict mode', 'Anthropic strict tool use')}`,
      { field: error.field, cause: error },
    );
  }
  const problem = anthropicProblem(converted.schema, '');
  if (problem !== undefined)
    throw new AdapterError(
      'schema_unsupported',
      `Tool '${tool.name}': Anthropic strict tool use cannot express '${problem.keyword}' at ${problem.path || '<root>'}.`,
      { field: problem.path },
    );
  return {
    schema: withoutAnnotations(converted.schema) as StrictJsonSchema['schema'],
    restore: converted.restore,
  };
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
 * One toolset for many conversations, each with its own plan, through a session pool:
 * ```ts
 * const pool = createSessionPool({ store: new FileStore() });
 * const session = pool.resolver((context: { key: string }) => context.key);
 * const results = await toolset.runToolUses(reply.content, { session, key: chatId });
 * ```
 * @throws AdapterError `tools_invalid` when `tools` is not an array; `schema_unsupported` when a
 *   strict tool's schema cannot be expressed in Anthropic's strict tool use
 * @throws PlankitError `argument_invalid` for an option it does not take
 * @public
 */
export function createAnthropicToolset(
  tools: readonly AnyTool[],
  options: AnthropicToolsetOptions = {},
): AnthropicToolset {
  // Strict tool use (`strict: true` on the definition) constrains the model's input by the
  // schema's grammar; Anthropic's form of the schema is checked and trimmed for it.
  const { offered, prepare } = prepareHostTools(tools, options, {
    where: 'createAnthropicToolset',
    keys: OPTION_KEYS,
    strictSchema: strictSchemaFor,
  });
  const definitions = offered.map(
    ({ tool, strict, schema }): Tool => ({
      name: tool.name,
      description: tool.description,
      input_schema: schema as Tool['input_schema'],
      ...(strict ? { strict: true } : {}),
    }),
  );
  const toolset: AnthropicToolset = {
    tools: Object.freeze(definitions),
    async runToolUses(content, run) {
      const records: AnthropicCallRecord[] = [];
      const blocks: readonly unknown[] = Array.isArray(content) ? content : [];
      for (let index = 0; index < blocks.length; index++) {
        const block = blocks[index];
        if (!isRecord(block) || block['type'] !== 'tool_use') continue;
        const id = typeof block['id'] === 'string' ? block['id'] : '';
        const name = typeof block['name'] === 'string' ? block['name'] : '';
        let outcome: { tool: AnyTool | undefined; result: ToolResult<unknown> | SessionRefusal };
        if (name === '')
          outcome = {
            tool: undefined,
            result: refused(`Tool use block ${index} has no tool name.`, `content[${index}].name`),
          };
        else {
          try {
            // The session is held for the call alone: a pool may evict it between calls.
            outcome = await runHostCall({
              tools,
              source: run.session,
              context: keyedContext(run.session, run.key),
              call: { name, arguments: block['input'], parsed: true, id },
              now: run.now,
              prepare,
              durability: options.durability,
            });
          } catch (error) {
            // A throw here is a host or tool bug: reported for this block alone.
            outcome = { tool: undefined, result: callFailure(name, error) };
          }
        }
        const { tool, result } = outcome;
        const reply: ToolResultBlockParam = {
          type: 'tool_result',
          tool_use_id: id,
          content: result.success ? formatToolContent(result, tool) : result.message,
          ...(result.success ? {} : { is_error: true }),
        };
        records.push({ toolUseId: id, name, result, block: reply });
      }
      return records;
    },
  };
  return Object.freeze(toolset);
}
