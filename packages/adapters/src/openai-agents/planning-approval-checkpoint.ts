import type { AnyTool } from '@plankit/core';

/**
 * Where a planning call stands among the approval checkpoints of `@plankit/controller`'s
 * `approvalRequired(policy, checkpoint)`, read from the tool's `plan` trait: `milestone` for a
 * tool that clears the plan (`plan: 'clear'`, `planning_clear_plan`: it abandons the plan and
 * drops its steps), `step` for every other planning tool that changes the plan, including the
 * ones extensions add (`planning_apply_batch`, `planning_claim_step`, `planning_release_step`,
 * or your own tool declaring a `plan` trait). `undefined` for calls that never need approval:
 * a tool that only reads (`plan: 'read'` or the `readOnly` trait, `planning_read_plan`), and
 * tools without a `plan` trait, which are not planning tools (the host decides for those).
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
  // Read from the tool's traits, never from its name.
  const role = tool.traits?.plan;
  if (role === undefined || role === 'read' || tool.traits.readOnly === true) return undefined;
  return role === 'clear' ? 'milestone' : 'step';
}
