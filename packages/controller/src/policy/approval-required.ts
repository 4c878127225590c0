import { ControllerError } from '../controller-error.ts';
import type { InteractionPolicy } from './interaction-policy.ts';
import { asksApproval } from './internal/asks-approval.ts';
import { checkPolicy } from './resolve-policy.ts';

/**
 * Where an approval could be asked: `final` (the finished plan), `milestone` (a validated
 * outline, roadmap or schedule) or `step` (any other stage).
 *
 * @public
 */
export type ApprovalCheckpoint = 'final' | 'milestone' | 'step';

/**
 * Whether to ask for approval at a checkpoint (the approval cadence):
 * `single_final` at `final` only, `milestone_approvals` at `final` and `milestone`,
 * `strict_every_step` everywhere.
 *
 * @throws ControllerError `argument_invalid` for an invalid policy or checkpoint
 * @public
 */
export function approvalRequired(
  policy: InteractionPolicy,
  checkpoint: ApprovalCheckpoint,
): boolean {
  const { approval_policy } = checkPolicy('approvalRequired', policy);
  if (checkpoint !== 'final' && checkpoint !== 'milestone' && checkpoint !== 'step') {
    throw new ControllerError(
      'argument_invalid',
      'approvalRequired: checkpoint must be final, milestone or step.',
      {
        field: 'checkpoint',
      },
    );
  }
  return asksApproval(approval_policy, checkpoint);
}
