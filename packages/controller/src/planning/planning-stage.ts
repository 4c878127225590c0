/**
 * The stages and exits of the planning controller. The `APPROVE_*` wait stages exist
 * only in controllers whose `approval_policy` pauses there (see `approvalPauses`).
 *
 * @public
 */
export type PlanningStage =
  | 'COLLECT_CONTEXT'
  | 'APPROVE_CONTEXT'
  | 'DRAFT_OUTLINE'
  | 'APPROVE_OUTLINE_DRAFT'
  | 'VALIDATE_OUTLINE'
  | 'APPROVE_OUTLINE'
  | 'DRAFT_ROADMAP'
  | 'APPROVE_ROADMAP_DRAFT'
  | 'VALIDATE_ROADMAP'
  | 'APPROVE_ROADMAP'
  | 'DRAFT_SCHEDULE'
  | 'APPROVE_SCHEDULE_DRAFT'
  | 'VALIDATE_SCHEDULE'
  | 'SEEK_APPROVAL'
  | 'COMPLETE'
  | 'NEEDS_CLARIFICATION'
  | 'NEEDS_SCHED_ESCALATION'
  | 'ABORTED';

/** Every outcome some stage of the planning controller accepts. @public */
export type PlanningOutcome =
  | 'sufficient_context'
  | 'needs_clarification'
  | 'success'
  | 'low_confidence'
  | 'fatal_error'
  | 'valid'
  | 'invalid_retryable'
  | 'invalid_fatal'
  | 'infeasible'
  | 'approved'
  | 'rejected'
  | 'no_response'
  | 'stalled';
