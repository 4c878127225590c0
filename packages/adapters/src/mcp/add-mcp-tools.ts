import { type AnyTool, Session } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';
import { advertisedSchema } from '../host/advertised-schema.ts';
import { formatToolContent } from '../host/format-tool-content.ts';
import { checkHostOptions, type HostToolOptions } from '../host/host-tool-options.ts';
import { prepareHostTools } from '../host/prepare-host-tools.ts';
import { runHostCall } from '../host/run-host-call.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import { followPlan } from './add-mcp-plan-resource.ts';
import { type McpContext, mcpCallContext } from './mcp-context.ts';
import type { McpCallToolResult, McpServerLike } from './mcp-server-like.ts';
import { type McpToolAnnotations, mcpOutputSchema, mcpToolAnnotations } from './mcp-tool-traits.ts';

/** Options of `registerMcpTools` (`/mcp` and `/mcp-v2`). @public */
export interface McpToolsOptions extends Pick<HostToolOptions, 'clock' | 'durability'> {
  /**
   * The session the tools run against: a `Session` (every client shares its plan), or a
   * resolver called once per `tools/call` with the request's {@link McpContext} (v1: the
   * transport's `sessionId`; v2: the client's `_meta["plankit/planId"]`), typically a pool's
   * `resolver((context) => context.sessionId)`. A call whose session cannot be resolved (no
   * identity, a hostile id, a store failure) answers `isError: true` with the reason
   * (`session_unresolved`, `conversation_id_invalid`, ...) and changes nothing.
   */
  readonly session: SessionSource<McpContext>;
  /**
   * Annotations by tool name, merged over the ones each tool's traits give (`title`,
   * `readOnly`, `destructive`, `idempotent`, `openWorld`; `readOnlyHint` for a tool without a
   * `resultType` that does not say).
   */
  readonly annotations?: Readonly<Record<string, McpToolAnnotations>> | undefined;
  /**
   * The zod schema of a tool's `structuredContent` by tool name, or `null` for none. By
   * default a tool's `resultType` (and the plan for a tool whose `plan` trait is `'read'`); only object
   * schemas are used, since MCP's structured content is an object.
   */
  readonly outputSchemas?: Readonly<Record<string, z.ZodType | null>> | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'session',
  'clock',
  'annotations',
  'outputSchemas',
  'durability',
]);

/** An option refused in `registerMcpTools`' own words: the field named bare. */
const invalidOption = (_where: string, field: string, rule: string): AdapterError =>
  invalid(`${field} ${rule}.`, field.slice('options.'.length));

function invalid(message: string, field: string): AdapterError {
  return new AdapterError('tools_invalid', `registerMcpTools: ${message}`, { field });
}

function checkByName(
  value: unknown,
  field: string,
  names: ReadonlySet<string>,
  check: (entry: unknown) => boolean,
  rule: string,
): void {
  if (value === undefined) return;
  if (!isRecord(value)) throw invalid(`${field} must be an object keyed by tool name.`, field);
  for (const [name, entry] of Object.entries(value)) {
    if (!names.has(name)) throw invalid(`${field}.${name} names no tool in the list.`, field);
    if (!check(entry)) throw invalid(`${field}.${name} must be ${rule}.`, `${field}.${name}`);
  }
}

/** Checks the arguments of `registerMcpTools`; throws {@link AdapterError} `tools_invalid`. */
function checkArguments(server: unknown, tools: unknown, options: unknown): void {
  if (!Array.isArray(tools)) throw invalid('tools must be an array of plankit tools.', 'tools');
  if (typeof (server as McpServerLike | null)?.registerTool !== 'function')
    throw invalid('server must be an McpServer.', 'server');
  if (typeof options !== 'object' || options === null)
    throw invalid('options must be an object with a session.', 'options');
  checkHostOptions('registerMcpTools', options, OPTION_KEYS, invalidOption);
  const session = (options as McpToolsOptions).session;
  if (!(session instanceof Session) && typeof session !== 'function')
    throw invalid('options.session must be a Session or a resolver function.', 'session');
  const names = new Set((tools as AnyTool[]).map((tool) => tool?.name));
  const { annotations, outputSchemas } = options as McpToolsOptions;
  checkByName(
    annotations,
    'annotations',
    names,
    (entry) => typeof entry === 'object' && entry !== null,
    'an object',
  );
  checkByName(
    outputSchemas,
    'outputSchemas',
    names,
    (entry) => entry === null || entry instanceof z.ZodType,
    'a zod schema or null',
  );
}

/**
 * Registers `tools` on a v1 or v2 `McpServer` (see `registerMcpTools` in `/mcp` and `/mcp-v2`).
 * Each call goes through the host pipeline, so calls on one conversation apply one at a time in
 * the order they reach the server, holding its session.
 */
export function addMcpTools(
  server: McpServerLike,
  tools: readonly AnyTool[],
  options: McpToolsOptions,
): unknown[] {
  checkArguments(server, tools, options);
  const { clock } = prepareHostTools(tools, options, {
    where: 'registerMcpTools',
    keys: OPTION_KEYS,
    strictSchema: null,
    error: invalidOption,
  });
  return tools.map((definition) => {
    const outputSchema = mcpOutputSchema(definition, options.outputSchemas?.[definition.name]);
    const annotations = mcpToolAnnotations(definition, options.annotations?.[definition.name]);
    return server.registerTool(
      definition.name,
      {
        description: definition.description,
        inputSchema: advertisedSchema(definition),
        ...(outputSchema === undefined ? {} : { outputSchema }),
        ...(annotations === undefined ? {} : { annotations }),
      },
      async (args: unknown, extra: unknown): Promise<McpCallToolResult> => {
        const { tool, result } = await runHostCall({
          tools,
          source: options.session,
          context: mcpCallContext(options.session, extra),
          call: { name: definition.name, arguments: args, parsed: true },
          now: clock?.(),
          durability: options.durability,
          // Before the call, so the plan resource sees its change and notifies first.
          onConversation: (conversation) => followPlan(server, conversation),
        });
        const content = [{ type: 'text' as const, text: formatToolContent(result, tool) }];
        if (!result.success) return { content, isError: true };
        const value = result.value;
        return outputSchema !== undefined && isRecord(value)
          ? { content, structuredContent: value }
          : { content };
      },
    );
  });
}
