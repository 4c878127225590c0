import * as z from 'zod';
import { defineDataType } from '../define-data-type.ts';
import { clipText } from '../internal/refusal-text.ts';
import { stringProblem } from '../internal/storable-problem.ts';
import { dependencyProblem } from './dependencies/dependency-problem.ts';
import { agentIdProblem } from './owners/agent-id.ts';
import { stepIdProblem } from './step-id.ts';

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
  /**
   * The agent id holding the step. Only plans built with the `owners` option carry it;
   * absent means unclaimed. 1-64 characters: letters, digits and `. _ : @ / + -`, starting
   * with a letter or digit.
   */
  readonly owner?: string | undefined;
}

/** Schema of {@link PlanStep}. @public */
export const PlanStep: z.ZodType<PlanStep, PlanStep> = z.strictObject({
  step_id: z.string(),
  title: z.string(),
  details: z.string().nullable(),
  status: StepStatus,
  notes: z.array(z.string()),
  depends_on: z.array(z.string()).optional(),
  owner: z.string().optional(),
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
 * (no U+0000 or lone surrogates); owners that are well-formed agent ids; `depends_on` lists name other steps of the plan, each
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

/** A broken plan invariant: where (a zod-style path) and what. */
interface PlanProblem {
  /** The path of the offending field, such as `['steps', 2, 'step_id']`. */
  readonly path: readonly (string | number)[];
  /** The rule it breaks, without a final full stop. */
  readonly message: string;
}

/** The status the reducers give a plan with these steps, unless it was abandoned. */
function derivedStatus(plan: Plan): PlanStatus {
  const steps = plan.steps;
  if (steps.length === 0) return 'active';
  for (let i = 0; i < steps.length; i++) if (steps[i]?.status !== 'done') return 'active';
  return 'completed';
}

/**
 * The first plan invariant `plan` breaks, or undefined. Every plan the planning reducers
 * build keeps them, so a restored or hand-dispatched plan must too:
 * - step ids are well formed (1-64 printable ASCII characters, no spaces; an all-digit
 *   suffix numbers at most `MAX_STEP_NUMBER`) and unique, so new ids never collide;
 * - the status agrees with the steps: `abandoned` with no steps, `completed` when there are
 *   steps and all are done, `active` otherwise;
 * - every text can be stored (no U+0000, no lone surrogates).
 * Linear in the size of the plan. @internal
 */
function planProblem(plan: Plan): PlanProblem | undefined {
  const objective = stringProblem(plan.objective);
  if (objective !== undefined) return { path: ['objective'], message: `Objective ${objective}` };
  const seen = new Set<string>();
  const steps = plan.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as Plan['steps'][number];
    const id = step.step_id;
    const idRule = stepIdProblem(id);
    if (idRule !== undefined) {
      return {
        path: ['steps', i, 'step_id'],
        message: `Step id ${JSON.stringify(clipText(id, 80))} ${idRule}`,
      };
    }
    if (seen.has(id))
      return { path: ['steps', i, 'step_id'], message: `Step id ${id} appears more than once` };
    seen.add(id);
    const title = stringProblem(step.title);
    if (title !== undefined) return { path: ['steps', i, 'title'], message: `Title ${title}` };
    const details = step.details === null ? undefined : stringProblem(step.details);
    if (details !== undefined)
      return { path: ['steps', i, 'details'], message: `Details ${details}` };
    for (let n = 0; n < step.notes.length; n++) {
      const note = stringProblem(step.notes[n] as string);
      if (note !== undefined) return { path: ['steps', i, 'notes', n], message: `Note ${note}` };
    }
    if (step.owner !== undefined) {
      const owner = agentIdProblem(step.owner);
      if (owner !== undefined) return { path: ['steps', i, 'owner'], message: `Owner ${owner}` };
    }
  }
  if (plan.status === 'abandoned') {
    return steps.length === 0
      ? undefined
      : { path: ['status'], message: 'An abandoned plan has no steps' };
  }
  const expected = derivedStatus(plan);
  if (plan.status !== expected) {
    return {
      path: ['status'],
      message: `Plan status ${plan.status} does not match its steps, which make it ${expected}`,
    };
  }
  return undefined;
}
