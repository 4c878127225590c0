import type { Plan } from '../planning/plan.ts';
import type { Result } from '../result.ts';
import type { ToolValidationError } from '../tool-validation-error.ts';
import type { InteropOptions } from './interop-options.ts';
import { foreignPlanWrite } from './plan-write.ts';
import type { PlanWrite } from './planning-call.ts';
import type { ForeignListSpec } from './read-foreign-list.ts';
import { TODO_STATUSES, type TodoStatus, todoStatus, todoView } from './todo-status.ts';

/** One item of LangChain's `todos` (`todoListMiddleware`). @public */
export interface LangChainTodo {
  /** What to do. */
  readonly content: string;
  /** Where it stands. */
  readonly status: TodoStatus;
}

/** The arguments of LangChain's `write_todos` tool, and the `todos` of its agent state. @public */
export interface LangChainTodos {
  /** The whole list, in order. */
  readonly todos: LangChainTodo[];
}

const SPEC: ForeignListSpec = {
  where: 'fromLangChainTodos',
  argKeys: new Set(['todos']),
  list: 'todos',
  itemKeys: new Set(['content', 'status']),
  text: 'content',
  statuses: TODO_STATUSES,
};

/**
 * The plan as LangChain's `write_todos` arguments: each step's title and status, in order.
 * Ids, details, notes, dependencies and owners have no place there; `blocked` shows as
 * `pending`. No plan (or a cleared one) is an empty list.
 *
 * @public
 */
export function toLangChainTodos(plan: Plan | undefined): LangChainTodos {
  const steps = plan?.status === 'abandoned' ? [] : (plan?.steps ?? []);
  return { todos: steps.map((step) => ({ content: step.title, status: todoStatus(step.status) })) };
}

/**
 * The planning calls a `write_todos` call makes of `plan`, items matched to steps by content
 * so the ids stay stable (`docs/interop.md`). Run them with `applyPlanningCalls`.
 *
 * @param plan - the session's plan: `selectLatest(session, Plan)`
 * @param args - the `write_todos` arguments, as the model sent them
 * @returns the calls and the steps the list left out, or a `ToolValidationError`: `schema`
 *   (not the format's shape, or a field it lacks such as `__proto__`), `status_invalid`,
 *   `list_too_long` (more than `MAX_INTEROP_ITEMS` items) or `list_duplicate`
 * @throws PlankitError `argument_invalid` for bad options
 * @public
 */
export function fromLangChainTodos(
  plan: Plan | undefined,
  args: unknown,
  options: InteropOptions = {},
): Result<PlanWrite, ToolValidationError> {
  return foreignPlanWrite(SPEC, plan, args, options, todoView);
}
