import { formatPath } from '../internal/format-path.ts';
import { deepFreeze } from '../internal/produce.ts';
import { clipText, escapeControl } from '../internal/refusal-text.ts';
import type { Result } from '../result.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { type InProgressMode, inProgressRule } from './in-progress-rule.ts';
import { Plan, type PlanStep } from './plan.ts';

/** Options of {@link checkPlan}: the tools' options that decide which plans are valid. @public */
export interface CheckPlanOptions {
  /** The tools' `inProgress` option: `'single'` refuses a plan with two steps `in_progress`. */
  readonly inProgress?: InProgressMode | undefined;
}

/**
 * Why `plan` breaks the in-progress rule of `mode` (a second step `in_progress` under
 * `'single'`), or undefined. Linear in the number of steps. @internal
 */
export function inProgressProblem(plan: Plan, mode: InProgressMode): string | undefined {
  const rule = inProgressRule(mode);
  if (rule === null) return undefined;
  let first: PlanStep | undefined;
  for (const step of plan.steps) {
    if (step.status !== 'in_progress') continue;
    if (first === undefined) first = step;
    else return `${rule} Steps ${first.step_id} and ${step.step_id} are both in_progress.`;
  }
  return undefined;
}

/**
 * Checks a plan that arrives from outside the tools (a restored snapshot, a LangGraph update,
 * a host's own storage) by the rules the planning tools keep: the `Plan` schema (shape, the
 * tools' text rules, step ids in the tools' form, a status that agrees with the steps, owners,
 * dependencies) and, with `inProgress: 'single'`, at most one step `in_progress`. Every path a
 * plan enters by applies these same rules, so a plan is valid or not whichever way it came.
 *
 * @example
 * ```ts
 * const checked = checkPlan(JSON.parse(saved), { inProgress: 'single' });
 * if (!checked.ok) console.warn(checked.error.field, checked.error.message);
 * ```
 * @param value - anything; a plan is returned frozen, unchanged
 * @param options - the tools' `inProgress` option (`'any'` by default)
 * @returns the plan, or a {@link ToolValidationError} (`schema`, or `step_in_progress`) naming
 *   the field, with a message under 2,000 characters
 * @public
 */
export function checkPlan(
  value: unknown,
  options: CheckPlanOptions = {},
): Result<Plan, ToolValidationError> {
  const parsed = Plan.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined ? '' : formatPath(issue.path);
    const message = escapeControl(clipText(issue?.message ?? 'not a plan', 300));
    return {
      ok: false,
      error: new ToolValidationError(`Not a plan: ${field === '' ? '' : `${field}: `}${message}.`, {
        code: 'schema',
        ...(field === '' ? {} : { field }),
        issues: issue === undefined ? [] : [{ path: field, message }],
      }),
    };
  }
  const plan = deepFreeze(parsed.data);
  const single = inProgressProblem(plan, options.inProgress ?? 'any');
  if (single !== undefined) {
    return {
      ok: false,
      error: new ToolValidationError(single, { code: 'step_in_progress', field: 'steps' }),
    };
  }
  return { ok: true, value: plan };
}
