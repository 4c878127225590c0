import { update } from '../internal/produce.ts';
import type { Reducer } from '../reducer.ts';
import { replaceLatest } from '../replace-latest.ts';
import type { Session } from '../session.ts';
import { Plan, type PlanStep } from './plan.ts';
import {
  ensureActive,
  ensureClearable,
  ensureMarkable,
  ensureStatus,
  latestPlanOf,
  stepIndex,
} from './plan-checks.ts';
import {
  AddStep,
  ClearPlan,
  MarkStep,
  type NewPlanStep,
  SetupPlan,
  UpdateStep,
} from './plan-commands.ts';
import { formatStepId, highestStepNumber } from './step-id.ts';

// Reducers re-check the plan state they rely on, so a value dispatched by hand (or a tool
// result that raced another call) is refused rather than applied to the wrong plan.

function newSteps(steps: readonly NewPlanStep[], after: number): PlanStep[] {
  return steps.map(({ title, details }, index) => ({
    step_id: formatStepId(after + index + 1),
    title,
    details,
    status: 'pending',
    notes: [],
  }));
}

/** `planning_setup_plan`: a new active plan numbered from S001, whatever came before. */
export const setupPlanReducer: Reducer<Plan, SetupPlan> = (_plans, { value }) => [
  { objective: value.objective, status: 'active', steps: newSteps(value.initial_steps, 0) },
];

/** `planning_add_step`: appends pending steps numbered after the highest existing id. */
export const addStepReducer: Reducer<Plan, AddStep> = (plans, { value }) => {
  const plan = latestPlanOf(plans);
  ensureActive(plan, 'add steps to');
  const after = highestStepNumber(plan.steps.map((step) => step.step_id));
  return [
    {
      objective: plan.objective,
      status: 'active',
      steps: [...plan.steps, ...newSteps(value.steps, after)],
    },
  ];
};

/** `planning_update_step`: replaces the title and/or details; `null` keeps the old value. */
export const updateStepReducer: Reducer<Plan, UpdateStep> = (plans, { value }) => {
  const plan = latestPlanOf(plans);
  ensureActive(plan, 'update steps in');
  const index = stepIndex(plan, value.step_id);
  return [
    update(plan, (draft) => {
      const step = draft.steps[index] as PlanStep & { title: string; details: string | null };
      if (value.title !== null) step.title = value.title;
      if (value.details !== null) step.details = value.details;
    }),
  ];
};

/** `planning_mark_step`: sets the status, appends the note, recomputes the plan status. */
export const markStepReducer: Reducer<Plan, MarkStep> = (plans, { value }) => {
  const plan = latestPlanOf(plans);
  ensureMarkable(plan);
  const index = stepIndex(plan, value.step_id);
  const status = ensureStatus(value.status);
  const completed = plan.steps.every((step, i) => (i === index ? status : step.status) === 'done');
  return [
    update(plan, (draft) => {
      const step = draft.steps[index];
      if (step === undefined) return;
      step.status = status;
      if (value.note !== null) step.notes.push(value.note);
      draft.status = completed ? 'completed' : 'active';
    }),
  ];
};

/** `planning_clear_plan`: keeps the objective, drops the steps, marks the plan abandoned. */
export const clearPlanReducer: Reducer<Plan, ClearPlan> = (plans) => {
  const plan = latestPlanOf(plans);
  ensureClearable(plan);
  return [{ objective: plan.objective, status: 'abandoned', steps: [] }];
};

/**
 * Registers the planning reducers on a session (the plan slice keeps only the latest plan).
 * Registering twice is a no-op, so several planning sections can share one session.
 *
 * @public
 */
export function registerPlanningReducers(session: Session): void {
  session.register(Plan, replaceLatest);
  session.register(SetupPlan, setupPlanReducer, { slice: Plan });
  session.register(AddStep, addStepReducer, { slice: Plan });
  session.register(UpdateStep, updateStepReducer, { slice: Plan });
  session.register(MarkStep, markStepReducer, { slice: Plan });
  session.register(ClearPlan, clearPlanReducer, { slice: Plan });
}
