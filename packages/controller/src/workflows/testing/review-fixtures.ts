import { completeTodo } from '../phases/complete-todo.ts';
import type { PhaseJob } from '../phases/phase-job.ts';
import { type PhaseJobOptions, startPhaseJob } from '../phases/start-phase-job.ts';
import { todosYaml, unwrap } from './unwrap.ts';

/** An interactive job whose strategic phase just ended with a valid hand-off: waiting for review. */
export function waitingJob(now: number, options: Partial<PhaseJobOptions> = {}): PhaseJob {
  return planned(startPhaseJob({ jobId: 'job-7', now, interactive: true, ...options }), now);
}

/** Completes every todo of a strategic phase, handing off `todos` documents of 5 todos. */
export function planned(
  job: PhaseJob,
  now: number,
  todos: string = todosYaml(5, 'Phase 1: Extract'),
): PhaseJob {
  let next = job;
  for (const todo of job.todos) next = unwrap(completeTodo(next, { id: todo.id, now, todos }));
  return next;
}
