import * as z from 'zod';
import { defineDataType } from '../../define-data-type.ts';
import type { Reducer, ReducerEvent } from '../../reducer.ts';
import type { NewDependentStep } from '../dependencies/dependency-commands.ts';
import {
  addStepWithDependenciesReducer,
  updateStepWithDependenciesReducer,
} from '../dependencies/dependency-commands.ts';
import { type Plan, type PlanStep, StepStatus } from '../plan.ts';
import { latestPlanOf, stepIndex } from '../plan-checks.ts';
import { markStepReducer, setupPlanReducer } from '../planning-reducers.ts';

/** The most operations one batch may hold. @public */
export const MAX_BATCH_OPERATIONS = 50;

/** Set a step's status, optionally with a note (as `planning_mark_step`). @public */
export interface BatchMark {
  readonly op: 'mark';
  readonly step_id: string;
  readonly status: StepStatus;
  readonly note: string | null;
}

/** Append a note to a step, keeping its status. @public */
export interface BatchNote {
  readonly op: 'note';
  readonly step_id: string;
  readonly note: string;
}

/** Edit a step (as `planning_update_step`); `null` keeps a field. @public */
export interface BatchUpdate {
  readonly op: 'update';
  readonly step_id: string;
  readonly title: string | null;
  readonly details: string | null;
  /** New dependencies (only with the `dependencies()` extension), or `null` to keep them. */
  readonly depends_on: readonly string[] | null;
}

/** Append steps (as `planning_add_step`). @public */
export interface BatchAdd {
  readonly op: 'add';
  readonly steps: readonly NewDependentStep[];
}

/** One operation of a batch, after normalisation. @public */
export type BatchOperation =
  /** Start a new plan with no steps, replacing any plan (as `planning_setup_plan`). */
  | { readonly op: 'setup'; readonly objective: string }
  | BatchMark
  | BatchNote
  | BatchUpdate
  | BatchAdd;

/** The value `planning_apply_batch` dispatches: operations applied in order, all or none. @public */
export interface PlanBatch {
  /** 1 to {@link MAX_BATCH_OPERATIONS} operations. */
  readonly operations: readonly BatchOperation[];
}

const StoredOperation = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('setup'), objective: z.string() }),
  z.strictObject({
    op: z.literal('mark'),
    step_id: z.string(),
    status: StepStatus,
    note: z.string().nullable(),
  }),
  z.strictObject({ op: z.literal('note'), step_id: z.string(), note: z.string() }),
  z.strictObject({
    op: z.literal('update'),
    step_id: z.string(),
    title: z.string().nullable(),
    details: z.string().nullable(),
    depends_on: z.array(z.string()).nullable(),
  }),
  z.strictObject({
    op: z.literal('add'),
    steps: z.array(
      z.strictObject({
        title: z.string(),
        details: z.string().nullable(),
        depends_on: z.array(z.string()).optional(),
      }),
    ),
  }),
]);

/** Data type of a batch, reduced into the plan slice by {@link planBatchReducer}. @public */
export const PlanBatch: z.ZodType<PlanBatch, PlanBatch> = defineDataType(
  'plankit.PlanBatch',
  z.strictObject({ operations: z.array(StoredOperation).max(MAX_BATCH_OPERATIONS) }),
);

/**
 * Applies one operation to `plan` (`undefined` before the first plan) through the same
 * reducers the single tools use, so a batch equals its operations applied one by one. Throws
 * the refusal of the first rule it breaks.
 * @internal
 */
export function applyBatchOperation(
  before: Plan | undefined,
  operation: BatchOperation,
  event: Omit<ReducerEvent<unknown>, 'value'>,
): Plan {
  if (operation.op === 'setup') {
    const value = { objective: operation.objective, initial_steps: [] };
    return latestPlanOf(
      setupPlanReducer(before === undefined ? [] : [before], { ...event, value }),
    );
  }
  const plan = latestPlanOf(before === undefined ? [] : [before]);
  const plans = [plan];
  switch (operation.op) {
    case 'mark': {
      const { step_id, status, note } = operation;
      return latestPlanOf(markStepReducer(plans, { ...event, value: { step_id, status, note } }));
    }
    case 'note': {
      // A mark to the step's own status appends the note and changes nothing else.
      const current = plan.steps[stepIndex(plan, operation.step_id)] as PlanStep;
      const value = { step_id: operation.step_id, status: current.status, note: operation.note };
      return latestPlanOf(markStepReducer(plans, { ...event, value }));
    }
    case 'update': {
      const { step_id, title, details, depends_on } = operation;
      const value = { step_id, title, details, depends_on };
      return latestPlanOf(updateStepWithDependenciesReducer(plans, { ...event, value }));
    }
    case 'add':
      return latestPlanOf(
        addStepWithDependenciesReducer(plans, { ...event, value: { steps: operation.steps } }),
      );
    default: {
      const unknown: never = operation;
      throw new Error(`unknown batch operation ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * `planning_apply_batch`: applies every operation in order to the latest plan (a batch that
 * starts with `setup` needs none); if any is refused the whole batch is, and the plan stays as
 * it was.
 *
 * @public
 */
export const planBatchReducer: Reducer<Plan, PlanBatch> = (plans, event) => {
  let plan = plans[plans.length - 1];
  for (const operation of event.value.operations)
    plan = applyBatchOperation(plan, operation, event);
  return Object.freeze([latestPlanOf(plan === undefined ? [] : [plan])]);
};
