import type { Result } from '@plankit/core';
import { fail, inputProblem, textProblem } from '../internal/checks.ts';
import { type PhaseJob, REASON_LIMIT } from '../phases/phase-job.ts';
import { enterPhase, nextJob, step } from '../phases/phase-step.ts';
import type { WorkflowError } from '../workflow-error.ts';
import type { ReviewDecisionInput } from './review-decision-input.ts';

const KEYS: ReadonlySet<string> = new Set(['now', 'reason']);

/** Why the job cannot take a review decision, if it cannot: it must wait in `pending_review`. */
export function waitingProblem(where: string, job: PhaseJob): Result<never, WorkflowError> | null {
  if (job.machine.status === 'waiting') return null;
  const now =
    job.machine.status === 'done' ? 'complete' : `in ${job.phase} phase ${job.phaseNumber}`;
  return fail(
    'review_not_pending',
    `${where}: job ${job.jobId} is not waiting for review; it is ${now}.`,
    'job',
  );
}

/** Leaves `pending_review` for the held todos: an approval, or a skipped review. */
export function decide(
  where: string,
  job: PhaseJob,
  input: ReviewDecisionInput,
  status: 'approved' | 'skipped',
): Result<PhaseJob, WorkflowError> {
  const problem =
    inputProblem(where, input, KEYS, job.updatedAt) ??
    textProblem(where, 'input.reason', input.reason, REASON_LIMIT);
  if (problem !== null) return { ok: false, error: problem };
  const refused = waitingProblem(where, job);
  if (refused !== null) return refused;
  const document = job.handoff;
  if (document === null) throw new Error('unreachable: a job waiting for review holds its todos');
  const outcome = status === 'approved' ? 'review_approved' : 'review_skipped';
  const machine = step(where, job, outcome, input.now, input.reason ?? null);
  if (!machine.ok) return machine;
  const { fields, started } = enterPhase(job, 'tactical', document.todos, document);
  return {
    ok: true,
    value: nextJob(job, {
      ...fields,
      machine: machine.value,
      handoff: null,
      review: { ...job.review, status },
      updatedAt: input.now,
      signals: [{ type: 'history_reset' }, started],
    }),
  };
}
