import { type Brand, brand } from '../internal/brand.ts';
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
  // An indexed loop: Node 20's array builtins are several times slower on frozen arrays.
  for (let i = 0; i < steps.length; i++) if (steps[i]?.step_id === stepId) return i;
  // The id comes from the model: clip it, so a megabyte id cannot make a megabyte message.
  throw new ToolValidationError(`Step ${clipText(stepId, 100)} does not exist.`, {
    code: 'step_unknown',
    field: 'step_id',
  });
}

/** Where a handler found a command's step, and its unfrozen copy of the plan's steps. */
export interface StepHint {
  /** The plan the handler searched. */
  readonly plan: Plan;
  /** What {@link stepIndex} returned for the command's step in that plan. */
  readonly index: number;
  /** `[...plan.steps]`, unchanged, for the reducer to take over once; then undefined. */
  steps: PlanStep[] | undefined;
}

// Carried on the command object of one call (never cached across calls), so a reducer skips
// the second search (and copy) only when it reduces that very plan; any other plan is
// searched again.
const stepHints: Brand<StepHint> = brand();

/**
 * Attaches to `command` (a fresh, not yet frozen object) where its step is in `plan`, and
 * optionally the handler's unchanged copy of `plan.steps`, which it must not keep.
 */
export function withStepHint<T extends { readonly step_id: string }>(
  command: T,
  plan: Plan,
  index: number,
  steps?: PlanStep[],
): T {
  stepHints.set(command, { plan, index, steps });
  return command;
}

/**
 * The index of `command.step_id` in `plan`: the handler's {@link withStepHint} when it was
 * taken from this same (frozen) plan, which is what {@link stepIndex} would return, else
 * {@link stepIndex} itself.
 */
export function commandStepIndex(plan: Plan, command: { readonly step_id: string }): number {
  const hint = stepHints.get(command);
  return hint !== undefined && hint.plan === plan ? hint.index : stepIndex(plan, command.step_id);
}

/**
 * {@link commandStepIndex}, with an unfrozen copy of `plan.steps` the caller may change: the
 * handler's own copy the first time (a command reduced again gets a fresh one), else a new one.
 */
export function commandStep(
  plan: Plan,
  command: { readonly step_id: string },
): { readonly index: number; readonly steps: PlanStep[] } {
  const hint = stepHints.get(command);
  if (hint === undefined || hint.plan !== plan) {
    return { index: stepIndex(plan, command.step_id), steps: [...plan.steps] };
  }
  const steps = hint.steps ?? [...plan.steps];
  hint.steps = undefined;
  return { index: hint.index, steps };
}

/** Refuses a status outside the four step statuses. */
export function ensureStatus(status: string): StepStatus {
  if (!(STEP_STATUSES as readonly string[]).includes(status)) {
    throw new ToolValidationError(STATUS_RULE, { code: 'status_invalid', field: 'status' });
  }
  return status as StepStatus;
}
