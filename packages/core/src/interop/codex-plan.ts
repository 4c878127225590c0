import { invalidArgument } from '../internal/invalid-argument.ts';
import type { Plan } from '../planning/plan.ts';
import type { Result } from '../result.ts';
import type { ToolValidationError } from '../tool-validation-error.ts';
import type { InteropOptions } from './interop-options.ts';
import { foreignPlanWrite } from './plan-write.ts';
import type { PlanWrite } from './planning-call.ts';
import type { ForeignListSpec } from './read-foreign-list.ts';
import { TODO_STATUSES, type TodoStatus, todoStatus, todoView } from './todo-status.ts';

/** One item of Codex's `update_plan`. @public */
export interface CodexPlanItem {
  /** What to do. */
  readonly step: string;
  /** Where it stands. */
  readonly status: TodoStatus;
}

/** The arguments of Codex's `update_plan` tool. @public */
export interface CodexPlanArgs {
  /** Why the plan changed, optional. */
  readonly explanation?: string | undefined;
  /** The whole list, in order. */
  readonly plan: CodexPlanItem[];
}

/** Options of {@link toCodexPlan}. @public */
export interface CodexPlanOptions {
  /** The `explanation` to send with the plan; none by default. */
  readonly explanation?: string | undefined;
}

const SPEC: ForeignListSpec = {
  where: 'fromCodexPlan',
  argKeys: new Set(['explanation', 'plan']),
  list: 'plan',
  itemKeys: new Set(['step', 'status']),
  text: 'step',
  statuses: TODO_STATUSES,
};

/**
 * The plan as Codex's `update_plan` arguments: each step's title and status, in order, with
 * `options.explanation` when given. Ids, details, notes, dependencies and owners have no
 * place there; `blocked` shows as `pending`. No plan (or a cleared one) is an empty list.
 *
 * @throws PlankitError `argument_invalid` for an explanation that is not a string
 * @public
 */
export function toCodexPlan(plan: Plan | undefined, options: CodexPlanOptions = {}): CodexPlanArgs {
  const explanation = options?.explanation;
  if (explanation !== undefined && typeof explanation !== 'string')
    throw invalidArgument('toCodexPlan', 'options.explanation', 'must be a string');
  const steps = plan?.status === 'abandoned' ? [] : (plan?.steps ?? []);
  const items = steps.map((step) => ({ step: step.title, status: todoStatus(step.status) }));
  return explanation === undefined ? { plan: items } : { explanation, plan: items };
}

/**
 * The planning calls an `update_plan` call makes of `plan`, items matched to steps by text so
 * the ids stay stable (`docs/interop.md`). The explanation is not kept. Run the calls with
 * `applyPlanningCalls`.
 *
 * @param plan - the session's plan: `selectLatest(session, Plan)`
 * @param args - the `update_plan` arguments, as the model sent them
 * @returns the calls and the steps the list left out, or a `ToolValidationError`: `schema`,
 *   `status_invalid`, `list_too_long` or `list_duplicate`
 * @throws PlankitError `argument_invalid` for bad options
 * @public
 */
export function fromCodexPlan(
  plan: Plan | undefined,
  args: unknown,
  options: InteropOptions = {},
): Result<PlanWrite, ToolValidationError> {
  return foreignPlanWrite(SPEC, plan, args, options, todoView);
}
