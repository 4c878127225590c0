import { type AnyTool, Plan, type ToolTraits } from '@plankit/core';
import * as z from 'zod';

/**
 * MCP tool annotations: hints a client may show or act on (confirm before a destructive call,
 * retry an idempotent one). Hints only: a client must not trust them for safety.
 *
 * @public
 */
export interface McpToolAnnotations {
  /** A human-readable title. */
  readonly title?: string;
  /** The tool does not change its environment. */
  readonly readOnlyHint?: boolean;
  /** The tool may overwrite or remove state (meaningful when not read-only). */
  readonly destructiveHint?: boolean;
  /** Repeating a call with the same arguments has no further effect (when not read-only). */
  readonly idempotentHint?: boolean;
  /** The tool reaches outside the server (the web, other systems). */
  readonly openWorldHint?: boolean;
}

/**
 * The annotations a tool is listed with: its traits (`title`, `readOnly`, `destructive`,
 * `idempotent`, `openWorld` become `title` and the `...Hint`s), `readOnlyHint` for a tool
 * without a `resultType` that does not say (core's mark of a tool that only reads), then the
 * host's `override` on top.
 */
export function mcpToolAnnotations(
  tool: AnyTool,
  override: McpToolAnnotations | undefined,
): McpToolAnnotations | undefined {
  const { title, readOnly, destructive, idempotent, openWorld }: ToolTraits = tool.traits ?? {};
  const base: { -readonly [K in keyof McpToolAnnotations]: McpToolAnnotations[K] } = {};
  if (title !== undefined) base.title = title;
  const readOnlyHint = readOnly ?? (tool.resultType === null ? true : undefined);
  if (readOnlyHint !== undefined) base.readOnlyHint = readOnlyHint;
  if (destructive !== undefined) base.destructiveHint = destructive;
  if (idempotent !== undefined) base.idempotentHint = idempotent;
  if (openWorld !== undefined) base.openWorldHint = openWorld;
  const merged = { ...base, ...override };
  return Object.keys(merged).length === 0 ? undefined : Object.freeze(merged);
}

const objectSchemas = new WeakMap<z.ZodType, boolean>();

// MCP's structuredContent is a JSON object, so only object-shaped results get an outputSchema.
function isObjectSchema(schema: z.ZodType): boolean {
  let known = objectSchemas.get(schema);
  if (known === undefined) {
    const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
    known = json.type === 'object';
    objectSchemas.set(schema, known);
  }
  return known;
}

/**
 * The schema of a tool's `structuredContent`: the host's `override` (`null` for none), else
 * the tool's `resultType` (what a successful call's value is), else the plan for a tool that
 * reads it (`plan: 'read'` trait, `planning_read_plan`). Only object schemas qualify.
 */
export function mcpOutputSchema(
  tool: AnyTool,
  override: z.ZodType | null | undefined,
): z.ZodType | undefined {
  const schema =
    override !== undefined
      ? override
      : (tool.resultType ?? (tool.traits?.plan === 'read' ? Plan : null));
  return schema !== null && isObjectSchema(schema) ? schema : undefined;
}
