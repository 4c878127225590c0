import type { Plan } from '../planning/plan.ts';
import type { Result } from '../result.ts';
import type { ToolValidationError } from '../tool-validation-error.ts';
import type { InteropOptions } from './interop-options.ts';
import { foreignPlanWrite } from './plan-write.ts';
import type { PlanWrite } from './planning-call.ts';
import type { ForeignListSpec } from './read-foreign-list.ts';
import { TODO_STATUSES, type TodoStatus, todoStatus, todoView } from './todo-status.ts';

/**
 * One task of the Claude Agent SDK's task tools: the fields of `TaskGet`'s task, with
 * `TaskList`'s `owner`.
 *
 * @public
 */
export interface ClaudeTask {
  /** The task id; `toClaudeTasks` uses the step id. */
  readonly id: string;
  /** A brief title. */
  readonly subject: string;
  /** What needs to be done; empty when the step has no details. */
  readonly description: string;
  /** Where it stands. */
  readonly status: TodoStatus;
  /** Ids of the tasks that wait for this one. */
  readonly blocks: string[];
  /** Ids of the tasks this one waits for. */
  readonly blockedBy: string[];
  /** The agent holding the task, if any. */
  readonly owner?: string;
}

/** A list of Claude tasks, as `TaskList` returns it. @public */
export interface ClaudeTaskList {
  /** The tasks, in order. */
  readonly tasks: ClaudeTask[];
}

const SPEC: ForeignListSpec = {
  where: 'fromClaudeTasks',
  argKeys: new Set(['tasks']),
  list: 'tasks',
  itemKeys: new Set([
    'id',
    'subject',
    'description',
    'status',
    'blocks',
    'blockedBy',
    'owner',
    'activeForm',
    'metadata',
  ]),
  text: 'subject',
  statuses: TODO_STATUSES,
  details: 'description',
  id: 'id',
};

/**
 * The plan as Claude Agent SDK tasks: step ids as task ids, titles as subjects, details as
 * descriptions, `depends_on` as `blockedBy` (and its reverse as `blocks`), owners as owners.
 * Notes have no place there; `blocked` shows as `pending`.
 *
 * @public
 */
export function toClaudeTasks(plan: Plan | undefined): ClaudeTaskList {
  const steps = plan?.status === 'abandoned' ? [] : (plan?.steps ?? []);
  const blocks = new Map<string, string[]>();
  for (const step of steps) {
    for (const id of step.depends_on ?? []) {
      const list = blocks.get(id);
      if (list === undefined) blocks.set(id, [step.step_id]);
      else list.push(step.step_id);
    }
  }
  return {
    tasks: steps.map((step) => {
      const task = {
        id: step.step_id,
        subject: step.title,
        description: step.details ?? '',
        status: todoStatus(step.status),
        blocks: blocks.get(step.step_id) ?? [],
        blockedBy: [...(step.depends_on ?? [])],
      };
      return step.owner === undefined ? task : { ...task, owner: step.owner };
    }),
  };
}

/**
 * The planning calls a Claude task list makes of `plan`: a task whose id is a step id is that
 * step, the others are matched by subject (`docs/interop.md`); a description edits the
 * step's details. `blocks`, `blockedBy`, `owner`, `activeForm` and `metadata` are not kept:
 * dependencies and claims go through their own tools. Run the calls with
 * `applyPlanningCalls`.
 *
 * @param plan - the session's plan: `selectLatest(session, Plan)`
 * @param list - `{ tasks }`, as `TaskList` returns it
 * @returns the calls and the steps the list left out, or a `ToolValidationError`: `schema`,
 *   `status_invalid`, `list_too_long` or `list_duplicate`
 * @throws PlankitError `argument_invalid` for bad options
 * @public
 */
export function fromClaudeTasks(
  plan: Plan | undefined,
  list: unknown,
  options: InteropOptions = {},
): Result<PlanWrite, ToolValidationError> {
  return foreignPlanWrite(SPEC, plan, list, options, todoView);
}
