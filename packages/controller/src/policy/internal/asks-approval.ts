import type { InteractionPolicy } from '../interaction-policy.ts';

/**
 * The approval cadence on already checked values. Kept apart from the policy schema so the
 * planning controller (at the package root) can use the rule without bundling zod schemas.
 */
export function asksApproval(
  approvalPolicy: InteractionPolicy['approval_policy'],
  // ApprovalCheckpoint, spelled out: importing it from approval-required.ts would be a cycle.
  checkpoint: 'final' | 'milestone' | 'step',
): boolean {
  switch (approvalPolicy) {
    case 'single_final':
      return checkpoint === 'final';
    case 'milestone_approvals':
      return checkpoint !== 'step';
    case 'strict_every_step':
      return true;
    default: {
      const never: never = approvalPolicy;
      return never;
    }
  }
}
