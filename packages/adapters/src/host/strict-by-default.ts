import type { AnyTool } from '@plankit/core';

/** Names of plankit's planning tools (the six, and the opt-in plan-model tools), strict by default. */
const PLANNING_TOOLS: ReadonlySet<string> = new Set([
  'planning_setup_plan',
  'planning_add_step',
  'planning_update_step',
  'planning_mark_step',
  'planning_clear_plan',
  'planning_read_plan',
  'planning_apply_batch',
  'planning_claim_step',
  'planning_release_step',
]);

/**
 * Whether a tool is strict when an adapter's `strict` option is not given (every adapter
 * applies this one rule): plankit's
 * planning tools are (the six, and `planning_apply_batch`, `planning_claim_step` and
 * `planning_release_step` of the opt-in plan model), other tools are not.
 *
 * @public
 */
export function strictByDefault(tool: AnyTool): boolean {
  return PLANNING_TOOLS.has(tool.name);
}
