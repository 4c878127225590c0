import { formatStepId, type Plan, type PlanStep } from '@plankit/core';
import { PLANNING_LIMITS } from '@plankit/core/constants';
import { deepFreeze } from '@plankit/core/internal-unstable';
import { toPlanText } from '../../internal/to-plan-text.ts';
import type { PhaseJob } from './phase-job.ts';
import { ensureJob } from './phase-step.ts';
import type { TodoStatus } from './todo.ts';

function stepStatus(status: TodoStatus): PlanStep['status'] {
  switch (status) {
    case 'pending':
      return 'pending';
    case 'in_progress':
      return 'in_progress';
    case 'completed':
      return 'done';
    default: {
      const unknown: never = status;
      throw new Error(`unreachable: todo status ${String(unknown)}`);
    }
  }
}

/**
 * The current phase's todos as a core `Plan`, for a compaction anchor: the objective names
 * the phase (and its title), one step per todo in order (`S001`, `S002`, ...), each step's
 * `details` holding the todo's id (`todo_complete` names todos by id), `completed` shown as
 * `done`. The plan is `completed` when every todo is. Text is held to the planning tools'
 * text rules, so `fromPlanAnchor` reads the anchor back: a todo's content becomes a title of
 * at most 160 ASCII characters (line breaks and other control characters escaped as `\n`,
 * other non-ASCII characters as `\uXXXX`, longer content clipped with `...`); the todo id in
 * `details` names the whole todo.
 *
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job
 * @example
 * ```ts
 * const anchor = toPlanAnchor(todosPlan(job)); // from @plankit/prompt
 * ```
 * @public
 */
export function todosPlan(job: PhaseJob): Plan {
  ensureJob('todosPlan', job);
  const phase = `${job.phase === 'strategic' ? 'Strategic' : 'Tactical'} phase ${job.phaseNumber}`;
  const steps: PlanStep[] = job.todos.map((todo, index) => ({
    step_id: formatStepId(index + 1),
    title: toPlanText(todo.content, PLANNING_LIMITS.title),
    details: `todo id ${todo.id}`,
    status: stepStatus(todo.status),
    notes: [],
  }));
  return deepFreeze({
    objective: toPlanText(
      job.title === null ? phase : `${phase}: ${job.title}`,
      PLANNING_LIMITS.objective,
    ),
    status: steps.length > 0 && steps.every((s) => s.status === 'done') ? 'completed' : 'active',
    steps,
  });
}
