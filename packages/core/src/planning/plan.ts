import * as z from 'zod';
import { defineDataType } from '../define-data-type.ts';
import { clipText } from '../internal/refusal-text.ts';
import { dependencyProblem } from './dependencies/dependency-problem.ts';
import { agentIdProblem } from './owners/agent-id.ts';
import { stepIdProblem } from './step-id.ts';
import { PLANNING_LIMITS, storedTextProblem } from './text-rules.ts';

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
   * `S` and a number of at least three digits (`S001`, `S1000`), assigned by the reducers,
   * never reused. A restored plan holds the same form: other ids (`S1`, `Sabc`, `../../etc`)
   * are refused.
   */
  readonly step_id: string;
  /** 1-160 characters: printable ASCII, or with `text: 'unicode'` any language in NFC. */
  readonly title: string;
  /** Up to 512 characters (as the title), or `null`. */
  readonly details: string | null;
  /** Where the step stands. */
  readonly status: StepStatus;
  /** Notes recorded when the step was marked, oldest first. */
  readonly notes: readonly string[];
  /**
   * Ids of the steps this one waits for. Only plans built with the `dependencies()` extension
   * carry it; absent means none. At most `MAX_DEPENDENCIES` ids of other steps of the same
   * plan, each once, and no cycles.
   */
  readonly depends_on?: readonly string[] | undefined;
  /**
   * The agent id holding the step. Only plans built with the `owners()` extension carry it;
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
  /** 1-240 characters: printable ASCII, or with `text: 'unicode'` any language in NFC. */
  readonly objective: string;
  /** Where the plan stands. */
  readonly status: PlanStatus;
  /** The steps, in order. */
  readonly steps: readonly PlanStep[];
}

/**
 * Schema of {@link Plan}, and the data type of the plan slice: `selectLatest(session, Plan)`.
 * Beyond the shape it checks the plan invariants every reducer keeps, with the tools' own
 * rules: unique step ids in the tools' form (`S001`), numbered at most `MAX_STEP_NUMBER`; a
 * status that agrees with the steps (`abandoned` with none, `completed` exactly when all are
 * done); text the tools of either text mode could have stored (trimmed, not empty, within
 * `PLANNING_LIMITS`; ASCII without control characters, or text in NFC that meets the Unicode
 * rules: no controls, bidirectional controls or invisible characters); owners that are well-formed agent ids; `depends_on` lists
 * name other steps of the plan, each once, and form no cycle. So `snapshotFromJSON`,
 * `dispatch`, a store load and a LangGraph update all refuse a plan the tools could not have
 * built. The one-step-in-progress rule depends on the tools' `inProgress` option: see
 * `checkPlan`.
 *
 * @public
 */
export const Plan: z.ZodType<Plan, Plan> = defineDataType(
  'plankit.Plan',
  z
    .strictObject({ objective: z.string(), status: PlanStatus, steps: z.array(PlanStep) })
    .superRefine((plan, context) => {
      // planProblem indexes the ids as it checks them, so the dependency rules need not.
      const index = new Map<string, number>();
      const problem = planProblem(plan, index);
      if (problem !== undefined) {
        context.addIssue({ code: 'custom', path: [...problem.path], message: problem.message });
        return;
      }
      const dependency = dependencyProblem(plan.steps, index);
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

/** The text rule `text` breaks, as a message naming the field, or undefined. */
function textProblem(text: string, max: number, label: string): string | undefined {
  const problem = storedTextProblem(text, max);
  return problem === undefined ? undefined : `${label} ${problem.rule}`;
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
 * - every text is text the tools of either text mode could have stored: trimmed, not empty,
 *   within its limit (`PLANNING_LIMITS`), ASCII without control characters or NFC text that
 *   meets the Unicode rules.
 * Linear in the size of the plan. Fills `index` with each step's position by id as it goes;
 * it is complete when no problem is found. @internal
 */
function planProblem(plan: Plan, index: Map<string, number>): PlanProblem | undefined {
  const objective = textProblem(plan.objective, PLANNING_LIMITS.objective, 'Objective');
  if (objective !== undefined) return { path: ['objective'], message: objective };
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
    if (index.has(id))
      return { path: ['steps', i, 'step_id'], message: `Step id ${id} appears more than once` };
    index.set(id, i);
    const title = textProblem(step.title, PLANNING_LIMITS.title, 'Title');
    if (title !== undefined) return { path: ['steps', i, 'title'], message: title };
    const details =
      step.details === null
        ? undefined
        : textProblem(step.details, PLANNING_LIMITS.details, 'Details');
    if (details !== undefined) return { path: ['steps', i, 'details'], message: details };
    for (let n = 0; n < step.notes.length; n++) {
      const note = textProblem(step.notes[n] as string, PLANNING_LIMITS.note, 'Note');
      if (note !== undefined) return { path: ['steps', i, 'notes', n], message: note };
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
