import type { Result } from '@plankit/core';
import { fail, inputProblem, textProblem } from '../internal/checks.ts';
import { type PhaseJob, REASON_LIMIT } from '../phases/phase-job.ts';
import { ensureJob, nextJob } from '../phases/phase-step.ts';
import type { WorkflowError } from '../workflow-error.ts';
import type { ReviewDecisionInput } from './review-decision-input.ts';
import { decide } from './review-step.ts';

const WHERE = 'skipReview';
const KEYS: ReadonlySet<string> = new Set(['now', 'reason']);

/**
 * The escape hatch from review ("skip review and run"). From `pending_review`, the
 * first tactical phase starts with the held todos, as on approval (the trace records
 * `review_skipped`). During a strategic phase whose review is still `required` (a revision
 * under way, say), the review is marked `skipped`, so the next valid hand-off goes straight to
 * tactical.
 *
 * @returns the next job, or a {@link WorkflowError}: `review_not_required` when no review is
 *   pending or required, `job_done`, `input_invalid`
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job
 * @example
 * ```ts
 * const next = skipReview(job, { now, reason: 'deadline: run as planned' });
 * ```
 * @public
 */
export function skipReview(
  job: PhaseJob,
  input: ReviewDecisionInput,
): Result<PhaseJob, WorkflowError> {
  ensureJob(WHERE, job);
  if (job.machine.status === 'waiting') return decide(WHERE, job, input, 'skipped');
  const problem =
    inputProblem(WHERE, input, KEYS, job.updatedAt) ??
    textProblem(WHERE, 'input.reason', input.reason, REASON_LIMIT);
  if (problem !== null) return { ok: false, error: problem };
  if (job.machine.status === 'done') {
    return fail(
      'job_done',
      `${WHERE}: job ${job.jobId} is complete; it accepts no more changes.`,
      'job',
    );
  }
  if (job.review.status !== 'required') {
    return fail(
      'review_not_required',
      `${WHERE}: job ${job.jobId} has no review to skip; its review is ${job.review.status}.`,
      'job',
    );
  }
  return {
    ok: true,
    value: nextJob(job, { review: { ...job.review, status: 'skipped' }, updatedAt: input.now }),
  };
}
