import type { Result } from '@plankit/core';
import { fail, inputProblem, textProblem } from '../internal/checks.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { type PhaseJob, REASON_LIMIT } from './phase-job.ts';
import { ensureJob, nextJob, runningProblem, step } from './phase-step.ts';

/** What {@link completeJob} takes. @public */
export interface CompleteJobInput {
  /** When, in epoch milliseconds; not earlier than the job's `updatedAt`. */
  readonly now: number;
  /** The agent's summary of the job (at most 2,000 characters). */
  readonly summary?: string | null | undefined;
}

const WHERE = 'completeJob';
const KEYS: ReadonlySet<string> = new Set(['now', 'summary']);

/**
 * Ends the job: the `job_complete` tool. Only a strategic phase can end it, since only a
 * strategic agent can judge that the plan is fully executed; the job signals `job_completed`.
 *
 * @returns the completed job, or a {@link WorkflowError}: `phase_mismatch` from a tactical
 *   phase (its message tells the agent what to do instead), `review_pending`, `job_done`,
 *   `input_invalid`
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job
 * @example
 * ```ts
 * const done = completeJob(job, { now, summary: 'All four phases executed.' });
 * ```
 * @public
 */
export function completeJob(
  job: PhaseJob,
  input: CompleteJobInput,
): Result<PhaseJob, WorkflowError> {
  ensureJob(WHERE, job);
  const problem =
    inputProblem(WHERE, input, KEYS, job.updatedAt) ??
    textProblem(WHERE, 'input.summary', input.summary, REASON_LIMIT);
  if (problem !== null) return { ok: false, error: problem };
  const refused = runningProblem(WHERE, job);
  if (refused !== null) return refused;
  if (job.phase === 'tactical') {
    return fail(
      'phase_mismatch',
      `job_complete is only available in strategic phases; this is tactical phase ${job.phaseNumber}. Finish its todos with todo_complete: after the last one the job moves to a strategic phase, which decides whether the job is complete.`,
      'phase',
    );
  }
  const summary = input.summary ?? null;
  const machine = step(WHERE, job, 'job_completed', input.now, summary);
  if (!machine.ok) return machine;
  return {
    ok: true,
    value: nextJob(job, {
      machine: machine.value,
      updatedAt: input.now,
      signals: [{ type: 'job_completed', summary }],
    }),
  };
}
