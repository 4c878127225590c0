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
import { addStepReducer, markStepReducer, setupPlanReducer } from '../planning-reducers.ts';

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

// One shape for every event handed to the single reducers: spreading the batch's event per
// operation is several times slower (the events it spreads have two shapes).
function withValue<E>(event: Omit<ReducerEvent<unknown>, 'value'>, value: E): ReducerEvent<E> {
  return { dataType: event.dataType, value, sessionId: event.sessionId, at: event.at };
}

/** True when any of `steps` has a `depends_on` list, even an empty one. @internal */
export function hasDependencies(steps: readonly { readonly depends_on?: unknown }[]): boolean {
  for (let i = 0; i < steps.length; i++)
    if ((steps[i] as { readonly depends_on?: unknown }).depends_on !== undefined) return true;
  return false;
}

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
      setupPlanReducer(before === undefined ? [] : [before], withValue(event, value)),
    );
  }
  const plans = before === undefined ? [] : [before];
  const plan = latestPlanOf(plans);
  switch (operation.op) {
    case 'mark': {
      const { step_id, status, note } = operation;
      return latestPlanOf(markStepReducer(plans, withValue(event, { step_id, status, note })));
    }
    case 'note': {
      // A mark to the step's own status appends the note and changes nothing else.
      const current = plan.steps[stepIndex(plan, operation.step_id)] as PlanStep;
      const value = { step_id: operation.step_id, status: current.status, note: operation.note };
      return latestPlanOf(markStepReducer(plans, withValue(event, value)));
    }
    case 'update': {
      const { step_id, title, details, depends_on } = operation;
      const value = { step_id, title, details, depends_on };
      return latestPlanOf(updateStepWithDependenciesReducer(plans, withValue(event, value)));
    }
    case 'add': {
      const value = { steps: operation.steps };
      // With no depends_on anywhere there is no dependency to set or check, and the reference
      // add builds the same plan without the copy and the check.
      return latestPlanOf(
        hasDependencies(plan.steps) || hasDependencies(operation.steps)
          ? addStepWithDependenciesReducer(plans, withValue(event, value))
          : addStepReducer(plans, withValue(event, value)),
      );
    }
    default: {
      const unknown: never = operation;
      throw new Error(`unknown batch operation ${JSON.stringify(unknown)}`);
    }
  }
}

// The plan the batch handler reached by applying its batch, handed to the reducer of the same
// call so the operations are not applied twice. One slot, as withStepHint's: a synchronous
// handler's result is reduced before any other call runs; the slot matches only that very
// batch object reduced on the very plan the handler started from (the result is a pure
// function of the two, both frozen), is emptied when taken, and holds at most the two plans
// of one call. A hand-dispatched batch is a parsed copy, never this object, so it is applied
// in full.
const applied: { batch: object | undefined; start: Plan | undefined; result: Plan | undefined } = {
  batch: undefined,
  start: undefined,
  result: undefined,
};

/**
 * Records that applying `batch` (a fresh object the handler returns, frozen by then) to
 * `start` gave `result`. @internal
 */
export function withBatchResult<T extends PlanBatch>(
  batch: T,
  start: Plan | undefined,
  result: Plan,
): T {
  applied.batch = batch;
  applied.start = start;
  applied.result = result;
  return batch;
}

/** The handler's result for `batch` on `start`, emptying the slot; undefined when another's. */
function takeBatchResult(batch: object, start: Plan | undefined): Plan | undefined {
  if (applied.batch !== batch) return undefined;
  const result = applied.start === start ? applied.result : undefined;
  applied.batch = undefined;
  applied.start = undefined;
  applied.result = undefined;
  return result;
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
  const result = takeBatchResult(event.value, plan);
  if (result !== undefined) return Object.freeze([result]);
  for (const operation of event.value.operations)
    plan = applyBatchOperation(plan, operation, event);
  return Object.freeze([latestPlanOf(plan === undefined ? [] : [plan])]);
};
