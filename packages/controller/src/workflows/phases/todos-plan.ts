import { formatStepId, type Plan, type PlanStep, type TextMode } from '@plankit/core';
import { PLANNING_LIMITS } from '@plankit/core/constants';
import { deepFreeze } from '@plankit/core/internal-unstable';
import { toPlanText } from '../../internal/to-plan-text.ts';
import { checkOptions, workflowTextMode } from '../internal/checks.ts';
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

/** What {@link todosPlan} takes. @public */
export interface TodosPlanOptions {
  /**
   * The planning tools' text mode the plan is held to: `'ascii'` (the default) writes every
   * non-ASCII character as `\uXXXX`; `'unicode'` keeps todos in any language as they are.
   */
  readonly text?: TextMode | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['text']);

/**
 * The current phase's todos as a core `Plan`, for a compaction anchor: the objective names
 * the phase (and its title), one step per todo in order (`S001`, `S002`, ...), each step's
 * `details` holding the todo's id (`todo_complete` names todos by id), `completed` shown as
 * `done`. The plan is `completed` when every todo is. Text is held to the planning tools'
 * text rules in `options.text`'s mode, so `fromPlanAnchor` reads the anchor back: a todo's
 * content becomes a title of at most 160 characters (line breaks and other control characters
 * escaped as `\n`, longer content clipped with `...`; in `'ascii'` mode, the default, other
 * non-ASCII characters written as `\uXXXX`; in `'unicode'` mode the text kept in NFC, only the
 * characters that mode refuses, such as bidirectional controls, written as `\uXXXX`); the todo
 * id in `details` names the whole todo.
 *
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job, or bad options
 * @example
 * ```ts
 * const anchor = toPlanAnchor(todosPlan(job, { text: 'unicode' })); // from @plankit/prompt
 * ```
 * @public
 */
export function todosPlan(job: PhaseJob, options: TodosPlanOptions = {}): Plan {
  ensureJob('todosPlan', job);
  checkOptions('todosPlan', options, OPTION_KEYS);
  const text = workflowTextMode('todosPlan', options.text ?? 'ascii', 'options.text');
  const phase = `${job.phase === 'strategic' ? 'Strategic' : 'Tactical'} phase ${job.phaseNumber}`;
  const steps: PlanStep[] = job.todos.map((todo, index) => ({
    step_id: formatStepId(index + 1),
    title: toPlanText(todo.content, PLANNING_LIMITS.title, text),
    details: `todo id ${todo.id}`,
    status: stepStatus(todo.status),
    notes: [],
  }));
  return deepFreeze({
    objective: toPlanText(
      job.title === null ? phase : `${phase}: ${job.title}`,
      PLANNING_LIMITS.objective,
      text,
    ),
    status: steps.length > 0 && steps.every((s) => s.status === 'done') ? 'completed' : 'active',
    steps,
  });
}
