import type { Result } from '@plankit/core';
import type { PhaseJob } from '../phases/phase-job.ts';
import { ensureJob } from '../phases/phase-step.ts';
import type { WorkflowError } from '../workflow-error.ts';
import type { ReviewDecisionInput } from './review-decision-input.ts';
import { decide } from './review-step.ts';

const WHERE = 'approvePlan';

/**
 * A person approved the plan waiting in `pending_review`: the first tactical phase
 * starts with the todos validated at the hand-off, and no later hand-off waits for review.
 * Signals `history_reset` then `phase_started`.
 *
 * @returns the next job, or a {@link WorkflowError}: `review_not_pending` when the job is not
 *   waiting for review, `input_invalid`
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job
 * @example
 * ```ts
 * const job = phaseJobFromJSON(await readFile('job.json', 'utf8'));
 * if (job.ok) save(approvePlan(job.value, { now: Date.now(), reason: 'approved by Dana' }));
 * ```
 * @public
 */
export function approvePlan(
  job: PhaseJob,
  input: ReviewDecisionInput,
): Result<PhaseJob, WorkflowError> {
  ensureJob(WHERE, job);
  return decide(WHERE, job, input, 'approved');
}
