import { type Brand, brand } from '../internal/brand.ts';
import { clipText } from '../internal/refusal-text.ts';
import { selectLatest } from '../select-latest.ts';
import type { Session } from '../session.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { Plan, STATUS_RULE, STEP_STATUSES, type StepStatus } from './plan.ts';

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
  // An indexed loop: Node 20's array builtins are several times slower on frozen arrays.
  const steps = plan.steps;
  for (let i = 0; i < steps.length; i++) if (steps[i]?.step_id === stepId) return i;
  // The id comes from the model: clip it, so a megabyte id cannot make a megabyte message.
  throw new ToolValidationError(`Step ${clipText(stepId, 100)} does not exist.`, {
    code: 'step_unknown',
    field: 'step_id',
  });
}

// Where a handler found a command's step, in the plan it looked at. Carried on the command
// object of one call (never cached across calls), so the reducer skips a second search only
// when it reduces that very plan; any other plan is searched again.
const stepHints: Brand<{ readonly plan: Plan; readonly index: number }> = brand();

/** Attaches to `command` (a fresh, not yet frozen object) where its step is in `plan`. */
export function withStepHint<T extends { readonly step_id: string }>(
  command: T,
  plan: Plan,
  index: number,
): T {
  stepHints.set(command, { plan, index });
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

/** Refuses a status outside the four step statuses. */
export function ensureStatus(status: string): StepStatus {
  if (!(STEP_STATUSES as readonly string[]).includes(status)) {
    throw new ToolValidationError(STATUS_RULE, { code: 'status_invalid', field: 'status' });
  }
  return status as StepStatus;
}
