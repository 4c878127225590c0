import type { Plan, PlanStep, StepStatus } from '../planning/plan.ts';
import type { Result } from '../result.ts';
import type { ToolValidationError } from '../tool-validation-error.ts';
import type { InteropOptions } from './interop-options.ts';
import { foreignPlanWrite } from './plan-write.ts';
import type { PlanWrite } from './planning-call.ts';
import type { ForeignListSpec } from './read-foreign-list.ts';

/** The statuses of a pydantic-ai-harness plan item that plankit can hold. @public */
export type PydanticAIPlanStatus = 'pending' | 'in_progress' | 'completed' | 'blocked';

/** One item of pydantic-ai-harness's `write_plan` (its `PlanItem`). @public */
export interface PydanticAIPlanItem {
  /** The step id. */
  readonly id: string;
  /** What to do. */
  readonly content: string;
  /** Where it stands. */
  readonly status: PydanticAIPlanStatus;
  /** Ids of the steps this one waits for. */
  readonly depends_on: string[];
}

/** The arguments of pydantic-ai-harness's `write_plan` tool. @public */
export interface PydanticAIPlan {
  /** The whole plan, in order. */
  readonly items: PydanticAIPlanItem[];
}

const SPEC: ForeignListSpec = {
  where: 'fromPydanticAIPlan',
  argKeys: new Set(['items']),
  list: 'items',
  itemKeys: new Set(['id', 'content', 'status', 'active_form', 'parent_id', 'depends_on']),
  text: 'content',
  statuses: {
    pending: 'pending',
    in_progress: 'in_progress',
    completed: 'done',
    blocked: 'blocked',
  },
  defaultStatus: 'pending',
  id: 'id',
};

// The harness accepts `blocked` only on a step that depends on another: a step blocked for
// another reason shows as `pending`.
function harnessView(step: PlanStep): StepStatus {
  return step.status === 'blocked' && (step.depends_on?.length ?? 0) === 0
    ? 'pending'
    : step.status;
}

function harnessStatus(step: PlanStep): PydanticAIPlanStatus {
  const status = harnessView(step);
  return status === 'done' ? 'completed' : status;
}

/**
 * The plan as pydantic-ai-harness `write_plan` arguments: step ids as item ids, titles as
 * content, `depends_on` kept. Details, notes and owners have no place there; `blocked` stays
 * `blocked` on a step with dependencies (the harness refuses it on others, which show as
 * `pending`).
 *
 * @public
 */
export function toPydanticAIPlan(plan: Plan | undefined): PydanticAIPlan {
  const steps = plan?.status === 'abandoned' ? [] : (plan?.steps ?? []);
  return {
    items: steps.map((step) => ({
      id: step.step_id,
      content: step.title,
      status: harnessStatus(step),
      depends_on: [...(step.depends_on ?? [])],
    })),
  };
}

/**
 * The planning calls a `write_plan` call makes of `plan`: an item whose id is a step id is
 * that step, the others are matched by content (`docs/interop.md`). `cancelled` has no
 * plankit status and is refused; `active_form`, `parent_id` and `depends_on` are not kept.
 * Run the calls with `applyPlanningCalls`.
 *
 * @param plan - the session's plan: `selectLatest(session, Plan)`
 * @param args - the `write_plan` arguments, as the model sent them
 * @returns the calls and the steps the plan left out, or a `ToolValidationError`: `schema`,
 *   `status_invalid`, `list_too_long` or `list_duplicate` (a repeated content or id)
 * @throws PlankitError `argument_invalid` for bad options
 * @public
 */
export function fromPydanticAIPlan(
  plan: Plan | undefined,
  args: unknown,
  options: InteropOptions = {},
): Result<PlanWrite, ToolValidationError> {
  return foreignPlanWrite(SPEC, plan, args, options, harnessView);
}
