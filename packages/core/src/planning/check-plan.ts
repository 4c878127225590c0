import { checkOptionKeys } from '../internal/check-option-keys.ts';
import { formatPath } from '../internal/format-path.ts';
import { deepFreeze } from '../internal/produce.ts';
import { clipText, escapeControl } from '../internal/refusal-text.ts';
import type { Result } from '../result.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { type InProgressMode, inProgressRule } from './in-progress-rule.ts';
import { Plan, type PlanStep } from './plan.ts';
import { checkTextMode, type TextMode } from './text-mode.ts';
import { PLANNING_LIMITS, storedTextProblem } from './text-rules.ts';

/** Options of {@link checkPlan}: the tools' options that decide which plans are valid. @public */
export interface CheckPlanOptions {
  /** The tools' `inProgress` option: `'single'` refuses a plan with two steps `in_progress`. */
  readonly inProgress?: InProgressMode | undefined;
  /**
   * The tools' `text` option: `'ascii'` (the default, as for the tools) refuses text outside
   * printable ASCII; `'unicode'` holds text to the Unicode rules only.
   */
  readonly text?: TextMode | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['inProgress', 'text']);

/**
 * The first text of `plan` the ascii-mode tools could not have stored, as a field path and
 * a message, or undefined. The plan schema holds text to either mode's rules; this adds the
 * ascii mode's. Linear; one regex test per printable-ASCII text.
 */
function asciiProblem(plan: Plan): { field: string; message: string } | undefined {
  const check = (text: string, max: number, label: string, field: string) => {
    const problem = storedTextProblem(text, max, 'ascii');
    return problem === undefined ? undefined : { field, message: `${label} ${problem.rule}` };
  };
  const objective = check(plan.objective, PLANNING_LIMITS.objective, 'Objective', 'objective');
  if (objective !== undefined) return objective;
  for (let i = 0; i < plan.steps.length; i++) {
    const step = plan.steps[i] as PlanStep;
    const found =
      check(step.title, PLANNING_LIMITS.title, 'Title', `steps[${i}].title`) ??
      (step.details === null
        ? undefined
        : check(step.details, PLANNING_LIMITS.details, 'Details', `steps[${i}].details`));
    if (found !== undefined) return found;
    for (let n = 0; n < step.notes.length; n++) {
      const note = check(
        step.notes[n] as string,
        PLANNING_LIMITS.note,
        'Note',
        `steps[${i}].notes[${n}]`,
      );
      if (note !== undefined) return note;
    }
  }
  return undefined;
}

function notAPlan(field: string, message: string): Result<Plan, ToolValidationError> {
  return {
    ok: false,
    error: new ToolValidationError(`Not a plan: ${field === '' ? '' : `${field}: `}${message}.`, {
      code: 'schema',
      ...(field === '' ? {} : { field }),
      issues: [{ path: field, message }],
    }),
  };
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
 * dependencies) and, with `inProgress: 'single'`, at most one step `in_progress`, and with
 * `text: 'ascii'` (the default) only printable ASCII text. Every path a plan enters by applies
 * these same rules, so a plan is valid or not whichever way it came.
 *
 * @example
 * ```ts
 * const checked = checkPlan(JSON.parse(saved), { inProgress: 'single' });
 * if (!checked.ok) console.warn(checked.error.field, checked.error.message);
 * ```
 * @param value - anything; a plan is returned frozen, unchanged
 * @param options - the tools' `inProgress` (`'any'` by default) and `text` (`'ascii'` by
 *   default) options
 * @returns the plan, or a {@link ToolValidationError} (`schema`, or `step_in_progress`) naming
 *   the field, with a message under 2,000 characters
 * @throws PlankitError `argument_invalid` for unknown options or an unknown `text` mode
 * @public
 */
export function checkPlan(
  value: unknown,
  options: CheckPlanOptions = {},
): Result<Plan, ToolValidationError> {
  checkOptionKeys('checkPlan', options, OPTION_KEYS);
  const text = checkTextMode(options.text ?? 'ascii', 'checkPlan', 'options.text');
  const parsed = Plan.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue === undefined) return notAPlan('', 'not a plan');
    return notAPlan(formatPath(issue.path), escapeControl(clipText(issue.message, 300)));
  }
  const plan = deepFreeze(parsed.data);
  if (text === 'ascii') {
    const ascii = asciiProblem(plan);
    if (ascii !== undefined) return notAPlan(ascii.field, ascii.message);
  }
  const single = inProgressProblem(plan, options.inProgress ?? 'any');
  if (single !== undefined) {
    return {
      ok: false,
      error: new ToolValidationError(single, { code: 'step_in_progress', field: 'steps' }),
    };
  }
  return { ok: true, value: plan };
}
