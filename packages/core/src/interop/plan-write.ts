import type { Plan, PlanStep, StepStatus } from '../planning/plan.ts';
import type { NewPlanStepInput } from '../planning/plan-commands.ts';
import { formatStepId, highestStepNumber } from '../planning/step-id.ts';
import type { TextMode } from '../planning/text-mode.ts';
import type { Result } from '../result.ts';
import type { ToolValidationError } from '../tool-validation-error.ts';
import { type CheckedInteropOptions, checkInteropOptions } from './interop-options.ts';
import type { PlanningCall, PlanWrite } from './planning-call.ts';
import {
  type ForeignItem,
  type ForeignListSpec,
  matchKey,
  readForeignList,
} from './read-foreign-list.ts';

/** The status a format shows for a step, in plankit's terms (`blocked` shows as `pending`). */
export type StatusView = (step: PlanStep) => StepStatus;

/** The order marks run in: pauses first, then completions, then starts (see `phaseOf`). */
type Phase = 0 | 1 | 2;

// Pauses run before the edits and the add, so a reopened step makes a completed plan active
// again; starts run last, so under `inProgress: 'single'` the step being left is already
// marked when the next one starts.
function phaseOf(status: StepStatus): Phase {
  if (status === 'done') return 1;
  if (status === 'in_progress') return 2;
  return 0;
}

function newStep(item: ForeignItem): NewPlanStepInput {
  return item.details === undefined
    ? { title: item.title }
    : { title: item.title, details: item.details };
}

/** True when `details`, as the tools of `mode` would store them, differ from the step's. */
function detailsChanged(details: string | undefined, step: PlanStep, mode: TextMode): boolean {
  if (details === undefined) return false;
  const trimmed = matchKey(details, mode);
  // Blank details keep the step's: planning_update_step cannot clear them.
  return trimmed !== '' && trimmed !== step.details;
}

/**
 * What an "in" converter returns: `options` checked for the converter `spec.where`, `args` read
 * by `spec` ({@link readForeignList}), then the calls that bring `plan` to the items
 * ({@link planWrite}), statuses compared as `view` shows them. @internal
 */
export function foreignPlanWrite(
  spec: ForeignListSpec,
  plan: Plan | undefined,
  args: unknown,
  options: unknown,
  view: StatusView,
): Result<PlanWrite, ToolValidationError> {
  const checked = checkInteropOptions(spec.where, options);
  const items = readForeignList(spec, args, checked.text);
  if (!items.ok) return items;
  return { ok: true, value: planWrite(plan, items.value, checked, view) };
}

/**
 * The planning calls that bring `plan` to what `items` say, matching items to steps so ids
 * stay stable (the rule `docs/interop.md` states):
 * 1. an item carrying the id of a step (formats that keep ids) is that step;
 * 2. an item whose text, trimmed (NFC under `'unicode'`), equals a step's title is that step,
 *    the first such step when titles repeat;
 * 3. when nothing matched, the list is a new plan: `planning_setup_plan` with every item;
 * 4. otherwise an item left at the position of a step left too is that step, renamed;
 * 5. other items are new steps, appended in list order; other steps stay as they are
 *    (`unlisted`), since plankit never deletes a step.
 * A step's status changes only when the format shows it differently (`view`), so an
 * unchanged list makes no call. Linear in the plan and the list. @internal
 */
export function planWrite(
  plan: Plan | undefined,
  items: readonly ForeignItem[],
  options: CheckedInteropOptions,
  view: StatusView,
): PlanWrite {
  if (plan === undefined || plan.status === 'abandoned') {
    if (items.length === 0) return { calls: [], unlisted: [] };
    return newPlan(options.objective ?? plan?.objective ?? 'Plan', items);
  }
  const steps = plan.steps;
  const matched = new Array<number | undefined>(items.length);
  const taken = new Uint8Array(steps.length);
  const byId = new Map<string, number>();
  const byKey = new Map<string, number[]>();
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s] as PlanStep;
    byId.set(step.step_id, s);
    const key = matchKey(step.title, options.text);
    const same = byKey.get(key);
    if (same === undefined) byKey.set(key, [s]);
    else same.push(s);
  }
  let anyMatch = false;
  for (let i = 0; i < items.length; i++) {
    const id = (items[i] as ForeignItem).id;
    const s = id === undefined ? undefined : byId.get(id);
    if (s !== undefined && taken[s] === 0) {
      matched[i] = s;
      taken[s] = 1;
      anyMatch = true;
    }
  }
  for (let i = 0; i < items.length; i++) {
    if (matched[i] !== undefined) continue;
    const same = byKey.get((items[i] as ForeignItem).key);
    const s = same?.find((candidate) => taken[candidate] === 0);
    if (s !== undefined) {
      matched[i] = s;
      taken[s] = 1;
      anyMatch = true;
    }
  }
  if (!anyMatch && steps.length > 0 && items.length > 0) {
    return newPlan(options.objective ?? plan.objective, items);
  }
  for (let i = 0; i < items.length && i < steps.length; i++) {
    if (matched[i] === undefined && taken[i] === 0) {
      matched[i] = i;
      taken[i] = 1;
    }
  }
  const updates: PlanningCall[] = [];
  const marks: [PlanningCall[], PlanningCall[], PlanningCall[]] = [[], [], []];
  const added: NewPlanStepInput[] = [];
  let next = highestStepNumber(steps.map((step) => step.step_id));
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as ForeignItem;
    const s = matched[i];
    if (s === undefined) {
      added.push(newStep(item));
      next++;
      if (item.status !== 'pending') mark(marks, formatStepId(next), item.status);
      continue;
    }
    const step = steps[s] as PlanStep;
    const renamed = item.key !== matchKey(step.title, options.text);
    const details = detailsChanged(item.details, step, options.text);
    if (renamed || details) {
      updates.push({
        tool: 'planning_update_step',
        args: {
          step_id: step.step_id,
          ...(renamed ? { title: item.title } : {}),
          ...(details ? { details: item.details } : {}),
        },
      });
    }
    if (view(step) === item.status) continue;
    // Every step of a completed plan is done: reopening one first makes the plan active for
    // the edits and the add, and no step is in progress to clash with a start.
    if (plan.status === 'completed') marks[0].push(markCall(step.step_id, item.status));
    else mark(marks, step.step_id, item.status);
  }
  const calls: PlanningCall[] = [...marks[0], ...updates];
  if (added.length > 0) calls.push({ tool: 'planning_add_step', args: { steps: added } });
  calls.push(...marks[1], ...marks[2]);
  const unlisted: string[] = [];
  for (let s = 0; s < steps.length; s++) {
    if (taken[s] === 0) unlisted.push((steps[s] as PlanStep).step_id);
  }
  return { calls, unlisted };
}

function mark(
  marks: [PlanningCall[], PlanningCall[], PlanningCall[]],
  stepId: string,
  status: StepStatus,
): void {
  marks[phaseOf(status)].push(markCall(stepId, status));
}

function markCall(stepId: string, status: StepStatus): PlanningCall {
  return { tool: 'planning_mark_step', args: { step_id: stepId, status } };
}

function newPlan(objective: string, items: readonly ForeignItem[]): PlanWrite {
  const marks: [PlanningCall[], PlanningCall[], PlanningCall[]] = [[], [], []];
  for (let i = 0; i < items.length; i++) {
    const status = (items[i] as ForeignItem).status;
    if (status !== 'pending') mark(marks, formatStepId(i + 1), status);
  }
  const setup: PlanningCall = {
    tool: 'planning_setup_plan',
    args: { objective, initial_steps: items.map(newStep) },
  };
  return { calls: [setup, ...marks[0], ...marks[1], ...marks[2]], unlisted: [] };
}
