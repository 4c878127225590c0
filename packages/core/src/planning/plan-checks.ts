import { clipText } from '../internal/refusal-text.ts';
import { selectLatest } from '../select-latest.ts';
import type { Session } from '../session.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { Plan, type PlanStep, STATUS_RULE, STEP_STATUSES, type StepStatus } from './plan.ts';

/** The latest plan in `slice`, or a refusal when there is none. */
export function latestPlanOf(plans: readonly Plan[]): Plan {
  const plan = plans[plans.length - 1];
  if (plan === undefined)
    throw new ToolValidationError('No plan is currently initialised.', { code: 'plan_missing' });
  return plan;
}

/** The session's plan, or a refusal when there is none. */
export function requirePlan(session: Session): Plan {
  const plan = selectLatest(session, Plan);
  if (plan === undefined)
    throw new ToolValidationError('No plan is currently initialised.', { code: 'plan_missing' });
  return plan;
}

/** Refuses to `action` (`add steps to`, `update steps in`) unless the plan is active. */
export function ensureActive(plan: Plan, action: string): void {
  if (plan.status !== 'active') {
    throw new ToolValidationError(
      `Plan must be active to ${action}. Current status: ${plan.status}.`,
      { code: 'plan_not_active' },
    );
  }
}

/** Refuses to mark steps on an abandoned plan. */
export function ensureMarkable(plan: Plan): void {
  if (plan.status === 'abandoned') {
    throw new ToolValidationError('Cannot mark steps on an abandoned plan.', {
      code: 'plan_abandoned',
    });
  }
}

/** Refuses to clear a plan that is already abandoned. */
export function ensureClearable(plan: Plan): void {
  if (plan.status === 'abandoned')
    throw new ToolValidationError('Plan already abandoned.', { code: 'plan_abandoned' });
}

/** The index of the step with exactly this id, or a refusal naming it. */
export function stepIndex(plan: Plan, stepId: string): number {
  return stepIndexIn(plan.steps, stepId);
}

/**
 * {@link stepIndex} over `steps`. Handlers that go on to rebuild the steps search an unfrozen
 * copy (`[...plan.steps]`): Node 20 reads a frozen array's elements about twice as slowly.
 */
export function stepIndexIn(steps: readonly PlanStep[], stepId: string): number {
  // The tools number steps in order from S001 and only ever append, so `S042` is usually at
  // index 41, or as far from it as the first step's number is from 1: try those first.
  const number = Number(stepId.slice(1));
  if (number > 0) {
    const first = steps[0];
    if (steps[number - 1]?.step_id === stepId) return number - 1;
    const shifted = first === undefined ? -1 : number - Number(first.step_id.slice(1));
    if (steps[shifted]?.step_id === stepId) return shifted;
  }
  // An indexed loop: Node 20's array builtins are several times slower on frozen arrays.
  for (let i = 0; i < steps.length; i++) if (steps[i]?.step_id === stepId) return i;
  // The id comes from the model: clip it, so a megabyte id cannot make a megabyte message.
  throw new ToolValidationError(`Step ${clipText(stepId, 100)} does not exist.`, {
    code: 'step_unknown',
    field: 'step_id',
  });
}

// Where the last handler found its command's step: one slot, handed from a handler to the
// reducer of the same call and emptied there. A synchronous handler's result is reduced before
// any other call runs, so the slot holds that call's command; it matches only that very command
// object reduced on the very plan searched, and holds at most one plan (a WeakMap or a mark on
// the command would keep a plan alive for every logged command). Nothing is cached across calls.
const hint: {
  command: object | undefined;
  plan: Plan | undefined;
  index: number;
  steps: PlanStep[] | undefined;
} = { command: undefined, plan: undefined, index: -1, steps: undefined };

/**
 * Records that `command` (a fresh object the handler returns) has its step at `index` in
 * `plan`, optionally with the handler's unchanged copy of `plan.steps`, which it must not keep.
 */
export function withStepHint<T extends { readonly step_id: string }>(
  command: T,
  plan: Plan,
  index: number,
  steps?: PlanStep[],
): T {
  hint.command = command;
  hint.plan = plan;
  hint.index = index;
  hint.steps = steps;
  return command;
}

/** The hint for `command` on `plan`, emptying the slot; undefined when it is another's. */
function takeHint(
  plan: Plan,
  command: object,
): { index: number; steps: PlanStep[] | undefined } | undefined {
  if (hint.command !== command) return undefined;
  const found = hint.plan === plan ? { index: hint.index, steps: hint.steps } : undefined;
  hint.command = undefined;
  hint.plan = undefined;
  hint.steps = undefined;
  return found;
}

/**
 * The index of `command.step_id` in `plan`: the handler's {@link withStepHint} when it was
 * taken from this same (frozen) plan, which is what {@link stepIndex} would return, else
 * {@link stepIndex} itself.
 */
export function commandStepIndex(plan: Plan, command: { readonly step_id: string }): number {
  return takeHint(plan, command)?.index ?? stepIndex(plan, command.step_id);
}

/**
 * {@link commandStepIndex}, with an unfrozen copy of `plan.steps` the caller may change: the
 * handler's own copy (handed over once), else a new one.
 */
export function commandStep(
  plan: Plan,
  command: { readonly step_id: string },
): { readonly index: number; readonly steps: PlanStep[] } {
  const found = takeHint(plan, command);
  if (found === undefined) {
    return { index: stepIndex(plan, command.step_id), steps: [...plan.steps] };
  }
  return { index: found.index, steps: found.steps ?? [...plan.steps] };
}

/** Refuses a status outside the four step statuses. */
export function ensureStatus(status: string): StepStatus {
  if (!(STEP_STATUSES as readonly string[]).includes(status)) {
    throw new ToolValidationError(STATUS_RULE, { code: 'status_invalid', field: 'status' });
  }
  return status as StepStatus;
}
