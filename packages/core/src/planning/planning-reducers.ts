import { noteStepEdit } from '../diagnostics/note-step-edit.ts';
import { update } from '../internal/produce.ts';
import type { Reducer } from '../reducer.ts';
import { replaceLatest } from '../replace-latest.ts';
import type { Session } from '../session.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { Plan, type PlanStep } from './plan.ts';
import {
  commandStep,
  commandStepIndex,
  ensureActive,
  ensureClearable,
  ensureMarkable,
  ensureStatus,
  latestPlanOf,
} from './plan-checks.ts';
import {
  AddStep,
  ClearPlan,
  isTrustedMark,
  MarkStep,
  type NewPlanStep,
  SetupPlan,
  UpdateStep,
} from './plan-commands.ts';
import { formatStepId, MAX_STEP_NUMBER, suffixNumber } from './step-id.ts';
import { ensurePlanText, PLANNING_LIMITS } from './text-rules.ts';

// Reducers re-check the plan state they rely on, so a value dispatched by hand (or a tool
// result that raced another call) is refused rather than applied to the wrong plan.
//
// Setup, add, mark and clear build their results by hand, frozen bottom-up, with indexed
// loops: they run on every call, and on Node 20 immer's copies and the array builtins are
// several times slower on frozen arrays (docs/performance.md). Update goes through immer.

// Tools hand reducers checked text; a hand-dispatched command, a LangGraph plan edit or a
// replayed event may not have been checked, so the reducers hold it to the tools' text rules.
function checkNewStep({ title, details }: NewPlanStep, field: string): void {
  ensurePlanText(title, `${field}.title`, 'Title', PLANNING_LIMITS.title);
  if (details !== null)
    ensurePlanText(details, `${field}.details`, 'Details', PLANNING_LIMITS.details);
}

/** Refuses numbering `count` more steps after `highest` when an id would pass MAX_STEP_NUMBER. */
export function ensureIdRoom(highest: number, count: number): void {
  if (count > MAX_STEP_NUMBER - highest) {
    throw new ToolValidationError(
      `Cannot add ${count === 1 ? 'a step' : `${count} steps`}: step ids would pass S${MAX_STEP_NUMBER}. Set up a new plan to start again at S001.`,
      { code: 'step_ids_exhausted', field: 'steps' },
    );
  }
}

function pendingStep(stepId: string, { title, details }: NewPlanStep): PlanStep {
  return Object.freeze({
    step_id: stepId,
    title,
    details,
    status: 'pending',
    notes: Object.freeze([]),
  });
}

function frozenPlan(objective: string, status: Plan['status'], steps: PlanStep[]): readonly Plan[] {
  return Object.freeze([Object.freeze({ objective, status, steps: Object.freeze(steps) })]);
}

/** `planning_setup_plan`: a new active plan numbered from S001, whatever came before. */
export const setupPlanReducer: Reducer<Plan, SetupPlan> = (_plans, { value }) => {
  ensurePlanText(value.objective, 'objective', 'Objective', PLANNING_LIMITS.objective);
  for (let i = 0; i < value.initial_steps.length; i++)
    checkNewStep(value.initial_steps[i] as NewPlanStep, `initial_steps[${i}]`);
  const steps: PlanStep[] = [];
  for (let i = 0; i < value.initial_steps.length; i++) {
    steps.push(pendingStep(formatStepId(i + 1), value.initial_steps[i] as NewPlanStep));
  }
  return frozenPlan(value.objective, 'active', steps);
};

/** `planning_add_step`: appends pending steps numbered after the highest existing id. */
export const addStepReducer: Reducer<Plan, AddStep> = (plans, { value }) => {
  const plan = latestPlanOf(plans);
  ensureActive(plan, 'add steps to');
  const steps = [...plan.steps];
  let highest = 0;
  for (let i = 0; i < steps.length; i++)
    highest = Math.max(highest, suffixNumber((steps[i] as PlanStep).step_id));
  ensureIdRoom(highest, value.steps.length);
  for (let i = 0; i < value.steps.length; i++)
    checkNewStep(value.steps[i] as NewPlanStep, `steps[${i}]`);
  for (let i = 0; i < value.steps.length; i++) {
    steps.push(pendingStep(formatStepId(highest + i + 1), value.steps[i] as NewPlanStep));
  }
  const added = frozenPlan(plan.objective, 'active', steps);
  noteStepEdit(plan.steps, steps, plan.steps.length, plan.steps.length, steps.length);
  return added;
};

/** `planning_update_step`: replaces the title and/or details; `null` keeps the old value. */
export const updateStepReducer: Reducer<Plan, UpdateStep> = (plans, { value }) => {
  const plan = latestPlanOf(plans);
  ensureActive(plan, 'update steps in');
  const index = commandStepIndex(plan, value);
  if (value.title !== null) ensurePlanText(value.title, 'title', 'Title', PLANNING_LIMITS.title);
  if (value.details !== null)
    ensurePlanText(value.details, 'details', 'Details', PLANNING_LIMITS.details);
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
  const { index, steps } = commandStep(plan, value);
  const status = ensureStatus(value.status);
  // A note the mark handler built (see trustedValue) has passed these rules already.
  if (value.note !== null && !isTrustedMark(value))
    ensurePlanText(value.note, 'note', 'Note', PLANNING_LIMITS.note);
  const step = steps[index] as PlanStep;
  const notes = value.note === null ? step.notes : Object.freeze([...step.notes, value.note]);
  steps[index] = Object.freeze({ ...step, status, notes });
  let completed = true;
  for (let i = 0; i < steps.length && completed; i++)
    completed = (steps[i] as PlanStep).status === 'done';
  const marked = frozenPlan(plan.objective, completed ? 'completed' : 'active', steps);
  noteStepEdit(plan.steps, steps, index, index + 1, index + 1);
  return marked;
};

/** `planning_clear_plan`: keeps the objective, drops the steps, marks the plan abandoned. */
export const clearPlanReducer: Reducer<Plan, ClearPlan> = (plans) => {
  const plan = latestPlanOf(plans);
  ensureClearable(plan);
  return frozenPlan(plan.objective, 'abandoned', []);
};

/**
 * Registers the planning reducers on a session (the plan slice keeps only the latest plan).
 * Registering twice is a no-op, so several planning sections can share one session.
 *
 * This is the first step of {@link createPlanningTools}, the one way to get the planning
 * tools. Call it yourself only to read or replay plans on a session that has no planning
 * tools (a viewer, or a worker restoring a snapshot).
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
