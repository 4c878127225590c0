import * as z from 'zod';
import { defineDataType } from '../define-data-type.ts';
import { dependencyProblem } from './dependencies/dependency-problem.ts';
import { planProblem } from './plan-problem.ts';

/** The step statuses, in the order the prompt lists them. @public */
export const STEP_STATUSES: readonly ['pending', 'in_progress', 'blocked', 'done'] = [
  'pending',
  'in_progress',
  'blocked',
  'done',
];

/** The status of one step. @public */
export type StepStatus = (typeof STEP_STATUSES)[number];

/** The message a model gets for a status outside {@link STEP_STATUSES}. @internal */
export const STATUS_RULE: string = `Status must be one of: ${STEP_STATUSES.join(', ')}.`;

/** Schema of {@link StepStatus}. @public */
export const StepStatus: z.ZodType<StepStatus, StepStatus> = z.enum(STEP_STATUSES, {
  error: STATUS_RULE,
});

/** The plan statuses. @public */
export const PLAN_STATUSES: readonly ['active', 'completed', 'abandoned'] = [
  'active',
  'completed',
  'abandoned',
];

/** The status of a plan: `completed` once every step is done, `abandoned` after a clear. @public */
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** Schema of {@link PlanStatus}. @public */
export const PlanStatus: z.ZodType<PlanStatus, PlanStatus> = z.enum(PLAN_STATUSES);

/** One step of a plan. @public */
export interface PlanStep {
  /**
   * `S` and a number of at least three digits (`S001`), assigned by the reducers, never
   * reused. A restored plan may hold other ids (1-64 printable ASCII characters, no spaces),
   * which numbering skips.
   */
  readonly step_id: string;
  /** 1-160 ASCII characters. */
  readonly title: string;
  /** Up to 512 ASCII characters, or `null`. */
  readonly details: string | null;
  /** Where the step stands. */
  readonly status: StepStatus;
  /** Notes recorded when the step was marked, oldest first. */
  readonly notes: readonly string[];
  /**
   * Ids of the steps this one waits for. Only plans built with the `dependencies` option
   * carry it; absent means none. At most `MAX_DEPENDENCIES` ids of other steps of the same
   * plan, each once, and no cycles.
   */
  readonly depends_on?: readonly string[] | undefined;
}

/** Schema of {@link PlanStep}. @public */
export const PlanStep: z.ZodType<PlanStep, PlanStep> = z.strictObject({
  step_id: z.string(),
  title: z.string(),
  details: z.string().nullable(),
  status: StepStatus,
  notes: z.array(z.string()),
  depends_on: z.array(z.string()).optional(),
});

/** The session's plan: an objective and ordered steps. @public */
export interface Plan {
  /** 1-240 ASCII characters. */
  readonly objective: string;
  /** Where the plan stands. */
  readonly status: PlanStatus;
  /** The steps, in order. */
  readonly steps: readonly PlanStep[];
}

/**
 * Schema of {@link Plan}, and the data type of the plan slice: `selectLatest(session, Plan)`.
 * Beyond the shape it checks the plan invariants every reducer keeps: well-formed, unique
 * step ids numbered at most `MAX_STEP_NUMBER`; a status that agrees with the steps
 * (`abandoned` with none, `completed` exactly when all are done); text a store can hold
 * (no U+0000 or lone surrogates); `depends_on` lists name other steps of the plan, each
 * once, and form no cycle. So `snapshotFromJSON` and `dispatch` refuse a plan that would let
 * ids collide or dependencies loop.
 *
 * @public
 */
export const Plan: z.ZodType<Plan, Plan> = defineDataType(
  'plankit.Plan',
  z
    .strictObject({ objective: z.string(), status: PlanStatus, steps: z.array(PlanStep) })
    .superRefine((plan, context) => {
      const problem = planProblem(plan);
      if (problem !== undefined) {
        context.addIssue({ code: 'custom', path: [...problem.path], message: problem.message });
        return;
      }
      const dependency = dependencyProblem(plan.steps);
      if (dependency !== undefined) {
        context.addIssue({
          code: 'custom',
          path: [...dependency.path],
          message: dependency.message,
        });
      }
    }),
);
