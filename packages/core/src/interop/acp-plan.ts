import type { Plan } from '../planning/plan.ts';
import type { Result } from '../result.ts';
import type { ToolValidationError } from '../tool-validation-error.ts';
import type { InteropOptions } from './interop-options.ts';
import { foreignPlanWrite } from './plan-write.ts';
import type { PlanWrite } from './planning-call.ts';
import type { ForeignListSpec } from './read-foreign-list.ts';
import { TODO_STATUSES, type TodoStatus, todoStatus, todoView } from './todo-status.ts';

/** One entry of an Agent Client Protocol plan. @public */
export interface ACPPlanEntry {
  /** What to do. */
  readonly content: string;
  /** How much it matters; plankit steps have no priority, so `toACPPlan` says `medium`. */
  readonly priority: 'high' | 'medium' | 'low';
  /** Where it stands. */
  readonly status: TodoStatus;
}

/** The `update` of an ACP `session/update` notification that carries a plan. @public */
export interface ACPPlanUpdate {
  /** Always `plan`. */
  readonly sessionUpdate: 'plan';
  /** The whole plan, in order: each update replaces the last. */
  readonly entries: ACPPlanEntry[];
}

const SPEC: ForeignListSpec = {
  where: 'fromACPPlan',
  argKeys: new Set(['sessionUpdate', 'entries', '_meta']),
  fixed: { sessionUpdate: 'plan' },
  list: 'entries',
  itemKeys: new Set(['content', 'priority', 'status', '_meta']),
  text: 'content',
  statuses: TODO_STATUSES,
};

/**
 * The plan as an ACP plan update (`session/update` with `sessionUpdate: 'plan'`): each
 * step's title and status, in order, every entry at priority `medium`. Ids, details, notes,
 * dependencies and owners have no place there; `blocked` shows as `pending`.
 *
 * @public
 */
export function toACPPlan(plan: Plan | undefined): ACPPlanUpdate {
  const steps = plan?.status === 'abandoned' ? [] : (plan?.steps ?? []);
  return {
    sessionUpdate: 'plan',
    entries: steps.map((step) => ({
      content: step.title,
      priority: 'medium',
      status: todoStatus(step.status),
    })),
  };
}

/**
 * The planning calls an ACP plan update makes of `plan`, entries matched to steps by content
 * so the ids stay stable (`docs/interop.md`). Priorities are not kept. Run the calls with
 * `applyPlanningCalls`.
 *
 * @param plan - the session's plan: `selectLatest(session, Plan)`
 * @param update - the notification's `update`, `sessionUpdate: 'plan'`
 * @returns the calls and the steps the plan left out, or a `ToolValidationError`: `schema`,
 *   `status_invalid`, `list_too_long` or `list_duplicate`
 * @throws PlankitError `argument_invalid` for bad options
 * @public
 */
export function fromACPPlan(
  plan: Plan | undefined,
  update: unknown,
  options: InteropOptions = {},
): Result<PlanWrite, ToolValidationError> {
  return foreignPlanWrite(SPEC, plan, update, options, todoView);
}
