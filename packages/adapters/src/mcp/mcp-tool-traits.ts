import { type AnyTool, Plan } from '@plankit/core';
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

// Decided per tool from the reference semantics (specs/adapters.md lists the reasons). Every
// planning tool works on the session only, so none is open-world. Idempotency is about the
// plan; the session's call log still records every call.
const PLANNING_ANNOTATIONS: Readonly<Record<string, McpToolAnnotations>> = {
  // Replaces any current plan; the same arguments rebuild the same plan (ids restart at S001).
  planning_setup_plan: {
    title: 'Set up the plan',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  // Only appends, but every call appends again under new ids.
  planning_add_step: {
    title: 'Add plan steps',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  // Overwrites a title or details; the same patch twice leaves the same step.
  planning_update_step: {
    title: 'Update a plan step',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  // Overwrites a status; a note is appended on every call, so a repeat is not a no-op.
  planning_mark_step: {
    title: 'Mark a plan step',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  // Abandons the plan and drops its steps; a second clear is refused and changes nothing.
  planning_clear_plan: {
    title: 'Clear the plan',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  planning_read_plan: { title: 'Read the plan', readOnlyHint: true, openWorldHint: false },
  // Opt-in plan model. A batch may mark and edit (overwrites) and add notes or steps (appends).
  planning_apply_batch: {
    title: 'Apply a batch of plan changes',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  // Takes a free step only; a repeat by the holder changes nothing, another holder is refused.
  planning_claim_step: {
    title: 'Claim a plan step',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  // Drops the caller's own claim; a second release is refused and changes nothing.
  planning_release_step: {
    title: 'Release a plan step',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
};

/**
 * The annotations a tool is listed with: the planning tools' own, `readOnlyHint` for any
 * other tool without a `resultType` (core's mark of a tool that only reads), then the host's
 * `override` on top.
 */
export function mcpToolAnnotations(
  tool: AnyTool,
  override: McpToolAnnotations | undefined,
): McpToolAnnotations | undefined {
  const base =
    PLANNING_ANNOTATIONS[tool.name] ?? (tool.resultType === null ? { readOnlyHint: true } : {});
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
 * the tool's `resultType` (what a successful call's value is), else the plan for
 * `planning_read_plan`. Only object schemas qualify.
 */
export function mcpOutputSchema(
  tool: AnyTool,
  override: z.ZodType | null | undefined,
): z.ZodType | undefined {
  const schema =
    override !== undefined
      ? override
      : (tool.resultType ?? (tool.name === 'planning_read_plan' ? Plan : null));
  return schema !== null && isObjectSchema(schema) ? schema : undefined;
}
