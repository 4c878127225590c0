import type { AnyTool } from '@plankit/core';

/**
 * Where a planning call stands among the approval checkpoints of `@plankit/controller`'s
 * `approvalRequired(policy, checkpoint)`: `milestone` for `planning_clear_plan` (it abandons the
 * plan and drops its steps), `step` for the other planning tools that change the plan.
 * `undefined` for calls that never need approval: `planning_read_plan` (it only reads) and tools
 * that are not planning tools (the host decides for those).
 *
 * With `approvalRequired`, a `single_final` policy asks for no planning call (its one
 * checkpoint is the finished plan), `milestone_approvals` asks before a clear, and
 * `strict_every_step` before every change.
 *
 * @example
 * ```ts
 * const checkpoint = planningApprovalCheckpoint(tool);
 * const ask = checkpoint !== undefined && approvalRequired(policy, checkpoint);
 * ```
 * @param tool - the plankit tool the call is for
 * @returns the checkpoint, or `undefined` when the call never needs approval
 * @public
 */
export function planningApprovalCheckpoint(tool: AnyTool): 'milestone' | 'step' | undefined {
  switch (tool.name) {
    case 'planning_clear_plan':
      return 'milestone';
    case 'planning_setup_plan':
    case 'planning_add_step':
    case 'planning_update_step':
    case 'planning_mark_step':
      return 'step';
    default:
      return undefined;
  }
}
