import * as z from 'zod';
import { defineDataType } from '../../define-data-type.ts';
import { clipText } from '../../internal/refusal-text.ts';
import type { Reducer } from '../../reducer.ts';
import { ToolValidationError } from '../../tool-validation-error.ts';
import type { Plan, PlanStep } from '../plan.ts';
import { ensureActive, latestPlanOf, stepIndex } from '../plan-checks.ts';
import { agentIdProblem } from './agent-id.ts';

/** The value `planning_claim_step` dispatches: `owner` takes `step_id`. @public */
export interface ClaimStep {
  /** Id of an existing step. */
  readonly step_id: string;
  /** The claiming agent's id. */
  readonly owner: string;
}

/** The value `planning_release_step` dispatches: `owner` lets go of `step_id`. @public */
export interface ReleaseStep {
  /** Id of an existing step. */
  readonly step_id: string;
  /** The releasing agent's id, which must hold the step. */
  readonly owner: string;
}

const Owner = z.string().superRefine((value, context) => {
  const problem = agentIdProblem(value);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: `Owner ${problem}` });
});

/** Data type of a claim, reduced into the plan slice by {@link claimStepReducer}. @public */
export const ClaimStep: z.ZodType<ClaimStep, ClaimStep> = defineDataType(
  'plankit.ClaimStep',
  z.strictObject({ step_id: z.string(), owner: Owner }),
);

/** Data type of a release, reduced into the plan slice by {@link releaseStepReducer}. @public */
export const ReleaseStep: z.ZodType<ReleaseStep, ReleaseStep> = defineDataType(
  'plankit.ReleaseStep',
  z.strictObject({ step_id: z.string(), owner: Owner }),
);

function ensureOwner(owner: string): void {
  const problem = agentIdProblem(owner);
  if (problem !== undefined)
    throw new ToolValidationError(`Owner ${problem}.`, { code: 'owner_invalid', field: 'owner' });
}

/** The refusal for touching a step another agent holds. @internal */
export function heldByOther(stepId: string, holder: string, action: string): ToolValidationError {
  return new ToolValidationError(`Step ${clipText(stepId, 100)} is held by ${holder}; ${action}.`, {
    code: 'step_claimed',
    field: 'step_id',
  });
}

function withOwner(plan: Plan, index: number, owner: string | undefined): readonly Plan[] {
  const steps = [...plan.steps];
  const { owner: _dropped, ...rest } = steps[index] as PlanStep;
  steps[index] = Object.freeze(owner === undefined ? rest : { ...rest, owner });
  return Object.freeze([Object.freeze({ ...plan, steps: Object.freeze(steps) })]);
}

/**
 * `planning_claim_step`: gives an unclaimed step to `owner`. Claiming a step the same owner
 * holds changes nothing; a step another owner holds, or one already done, is refused. The
 * check runs here, on the latest plan, so of two racing claims only the first applied wins.
 *
 * @public
 */
export const claimStepReducer: Reducer<Plan, ClaimStep> = (plans, { value }) => {
  const plan = latestPlanOf(plans);
  ensureActive(plan, 'claim steps in');
  ensureOwner(value.owner);
  const index = stepIndex(plan, value.step_id);
  const step = plan.steps[index] as PlanStep;
  if (step.owner === value.owner) return plans;
  if (step.owner !== undefined)
    throw heldByOther(
      step.step_id,
      step.owner,
      `claim another step or ask ${step.owner} to release it`,
    );
  if (step.status === 'done') {
    throw new ToolValidationError(`Step ${step.step_id} is done; there is nothing to claim.`, {
      code: 'step_done',
      field: 'step_id',
    });
  }
  return withOwner(plan, index, value.owner);
};

/**
 * `planning_release_step`: `owner` lets go of a step it holds. Releasing an unclaimed step,
 * or one another owner holds, is refused.
 *
 * @public
 */
export const releaseStepReducer: Reducer<Plan, ReleaseStep> = (plans, { value }) => {
  const plan = latestPlanOf(plans);
  ensureActive(plan, 'release steps in');
  ensureOwner(value.owner);
  const index = stepIndex(plan, value.step_id);
  const step = plan.steps[index] as PlanStep;
  if (step.owner === undefined) {
    throw new ToolValidationError(`Step ${step.step_id} has no owner to release.`, {
      code: 'step_unclaimed',
      field: 'step_id',
    });
  }
  if (step.owner !== value.owner)
    throw heldByOther(step.step_id, step.owner, `only ${step.owner} can release it`);
  return withOwner(plan, index, undefined);
};
