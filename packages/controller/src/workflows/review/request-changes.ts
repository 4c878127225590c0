import type { Result } from '@plankit/core';
import { clipText } from '@plankit/core/internal-unstable';
import { inputError, inputProblem } from '../internal/checks.ts';
import { FEEDBACK_LIMIT, type PhaseJob } from '../phases/phase-job.ts';
import type { PhaseSignal } from '../phases/phase-signal.ts';
import { ensureJob, enterPhase, nextJob, step } from '../phases/phase-step.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { waitingProblem } from './review-step.ts';

/** What {@link requestChanges} takes. @public */
export interface RequestChangesInput {
  /** When, in epoch milliseconds; not earlier than the job's `updatedAt`. */
  readonly now: number;
  /** What the reviewer wants changed: 1-20,000 characters, not blank. */
  readonly feedback: string;
}

const WHERE = 'requestChanges';
const KEYS: ReadonlySet<string> = new Set(['now', 'feedback']);

/** The first message of the revision conversation: the feedback, and what to do with it. */
function agentMessage(cycle: number, feedback: string): string {
  return [
    `A reviewer read your plan and requested changes (review cycle ${cycle}):`,
    '',
    feedback,
    '',
    'Address every point in main_plan.md, workspace.md and todos.yaml; the feedback is also in the Review Feedback section of workspace.md. When your last todo is complete, the revised plan goes back for review.',
  ].join('\n');
}

/**
 * A person requested changes to the plan waiting in `pending_review`: another
 * strategic iteration (kind `revision`) starts with the predefined revision todos, and its
 * valid hand-off waits for review again. The feedback reaches the agent both ways the design
 * recommends: the job signals `review_feedback` with the first message of the new
 * conversation, and the host writes the feedback into `workspace.md` with
 * `withReviewFeedback`. Past the job's `reviewLimit` it also signals `review_limit_reached`
 * (a soft limit: the request is never refused).
 *
 * Signals, in order: `history_reset`, `review_feedback`, `review_limit_reached` (when
 * reached), `phase_started`.
 *
 * @returns the next job, or a {@link WorkflowError}: `review_not_pending`, `input_invalid`
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job
 * @example
 * ```ts
 * const next = requestChanges(job, { now, feedback: 'Split the analysis into two phases.' });
 * ```
 * @public
 */
export function requestChanges(
  job: PhaseJob,
  input: RequestChangesInput,
): Result<PhaseJob, WorkflowError> {
  ensureJob(WHERE, job);
  const problem = inputProblem(WHERE, input, KEYS, job.updatedAt);
  if (problem !== null) return { ok: false, error: problem };
  const { now, feedback } = input;
  if (typeof feedback !== 'string' || feedback.trim() === '' || feedback.length > FEEDBACK_LIMIT) {
    return {
      ok: false,
      error: inputError(
        WHERE,
        'input.feedback',
        `must be 1-${FEEDBACK_LIMIT} characters, not blank`,
      ),
    };
  }
  const refused = waitingProblem(WHERE, job);
  if (refused !== null) return refused;
  const cycle = job.review.cycles + 1;
  const machine = step(WHERE, job, 'changes_requested', now, clipText(feedback, 2000));
  if (!machine.ok) return machine;
  const { fields, started } = enterPhase(job, 'revision', job.settings.todos.revision);
  const signals: PhaseSignal[] = [
    { type: 'history_reset' },
    { type: 'review_feedback', cycle, feedback, message: agentMessage(cycle, feedback) },
  ];
  const limit = job.settings.reviewLimit;
  if (limit !== null && cycle >= limit) {
    signals.push({ type: 'review_limit_reached', cycles: cycle, limit });
  }
  signals.push(started);
  return {
    ok: true,
    value: nextJob(job, {
      ...fields,
      machine: machine.value,
      handoff: null,
      review: {
        status: 'required',
        cycles: cycle,
        feedback: [...job.review.feedback, { cycle, at: now, feedback }],
      },
      updatedAt: now,
      signals,
    }),
  };
}
