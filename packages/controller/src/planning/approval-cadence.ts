import { ControllerError } from '../controller-error.ts';
import type { ApprovalCheckpoint } from '../policy/approval-required.ts';
import type { InteractionPolicy } from '../policy/interaction-policy.ts';
import { asksApproval } from '../policy/internal/asks-approval.ts';
import type { PlanningOutcome, PlanningStage } from './planning-stage.ts';

/**
 * How often the planning controller pauses for a person's approval: the `approval_policy`
 * slider of {@link InteractionPolicy}, with the same name and values.
 *
 * @public
 */
export type ApprovalPolicy = InteractionPolicy['approval_policy'];

/** Every {@link ApprovalPolicy}, from the fewest pauses to the most. @public */
export const APPROVAL_POLICIES: readonly ApprovalPolicy[] = Object.freeze([
  'single_final',
  'milestone_approvals',
  'strict_every_step',
]);

/**
 * One place the planning controller can pause for approval: a wait state entered when `after`
 * reports `outcome`, instead of going straight on to `approved`.
 *
 * @public
 */
export interface ApprovalPause {
  /** The wait state. */
  readonly stage: PlanningStage;
  /** The stage whose work is reviewed. */
  readonly after: PlanningStage;
  /** The outcome of `after` that leads to the pause (its forward outcome). */
  readonly outcome: PlanningOutcome;
  /** `final` (the finished plan), `milestone` (a validated artifact) or `step`. */
  readonly checkpoint: ApprovalCheckpoint;
  /** Where an `approved` reply leads: where `outcome` leads without the pause. */
  readonly approved: PlanningStage;
  /** Where a `rejected` reply leads, to redo the work. */
  readonly rejected: PlanningStage;
  /** What is reviewed, as the subject of a sentence ("The outline"). */
  readonly subject: string;
}

function pause(
  stage: PlanningStage,
  after: PlanningStage,
  outcome: PlanningOutcome,
  checkpoint: ApprovalCheckpoint,
  approved: PlanningStage,
  rejected: PlanningStage,
  subject: string,
): ApprovalPause {
  return Object.freeze({ stage, after, outcome, checkpoint, approved, rejected, subject });
}

/**
 * Every pause the planning controller can make, in the order of a run. `no_response` to any of
 * them goes to `NEEDS_CLARIFICATION`. A rejected draft or validated artifact goes back to its
 * own draft; a rejected final plan goes back to `DRAFT_OUTLINE`.
 *
 * @public
 */
export const APPROVAL_PAUSES: readonly ApprovalPause[] = Object.freeze([
  pause(
    'APPROVE_CONTEXT',
    'COLLECT_CONTEXT',
    'sufficient_context',
    'step',
    'DRAFT_OUTLINE',
    'COLLECT_CONTEXT',
    'The context gathered so far',
  ),
  pause(
    'APPROVE_OUTLINE_DRAFT',
    'DRAFT_OUTLINE',
    'success',
    'step',
    'VALIDATE_OUTLINE',
    'DRAFT_OUTLINE',
    'The outline draft',
  ),
  pause(
    'APPROVE_OUTLINE',
    'VALIDATE_OUTLINE',
    'valid',
    'milestone',
    'DRAFT_ROADMAP',
    'DRAFT_OUTLINE',
    'The validated outline',
  ),
  pause(
    'APPROVE_ROADMAP_DRAFT',
    'DRAFT_ROADMAP',
    'success',
    'step',
    'VALIDATE_ROADMAP',
    'DRAFT_ROADMAP',
    'The roadmap draft',
  ),
  pause(
    'APPROVE_ROADMAP',
    'VALIDATE_ROADMAP',
    'valid',
    'milestone',
    'DRAFT_SCHEDULE',
    'DRAFT_ROADMAP',
    'The validated roadmap',
  ),
  pause(
    'APPROVE_SCHEDULE_DRAFT',
    'DRAFT_SCHEDULE',
    'success',
    'step',
    'VALIDATE_SCHEDULE',
    'DRAFT_SCHEDULE',
    'The schedule draft',
  ),
  // The schedule is the last artifact: its milestone approval is the final one.
  pause(
    'SEEK_APPROVAL',
    'VALIDATE_SCHEDULE',
    'valid',
    'final',
    'COMPLETE',
    'DRAFT_OUTLINE',
    'The plan',
  ),
]);

/**
 * The pauses a policy makes, in the order of a run: `single_final` only `SEEK_APPROVAL`;
 * `milestone_approvals` also `APPROVE_OUTLINE` and `APPROVE_ROADMAP` (the validated outline
 * and roadmap; the validated schedule is the final plan); `strict_every_step` one after every
 * work stage: the rule of {@link @plankit/controller/policy!approvalRequired} at each pause's
 * checkpoint.
 *
 * @throws ControllerError `argument_invalid` for a value that is not an {@link ApprovalPolicy}
 * @example
 * ```ts
 * approvalPauses('milestone_approvals').map((p) => p.stage);
 * // ['APPROVE_OUTLINE', 'APPROVE_ROADMAP', 'SEEK_APPROVAL']
 * ```
 * @public
 */
export function approvalPauses(policy: ApprovalPolicy): readonly ApprovalPause[] {
  if (typeof policy !== 'string' || !APPROVAL_POLICIES.includes(policy)) {
    throw new ControllerError(
      'argument_invalid',
      'approvalPauses: policy must be single_final, milestone_approvals or strict_every_step.',
      { field: 'approval_policy' },
    );
  }
  return Object.freeze(APPROVAL_PAUSES.filter((p) => asksApproval(policy, p.checkpoint)));
}
