import { openSteps, type Plan } from '@plankit/core';
import { escapeControl } from '@plankit/core/internal-unstable';
import { dependencySummary } from '@plankit/core/plan-model';

// A reminder tag spelled in plan text has its `<` written `\u003c`, as the plan anchor does
// with its own tag: the reminder is a user message, and text after a forged closing tag would
// read as the user's. Text that does not spell the tag keeps its bytes.
const TAG_IN_TEXT = /<(\/?plan-reminder)/gi;
const text = (value: string): string => escapeControl(value).replace(TAG_IN_TEXT, '\\u003c$1');

/** Options of {@link renderPlanReminder}. @public */
export interface PlanReminderOptions {
  /**
   * Adds core's `dependencySummary` (`Ready: ...` and `Blocked: ... (waiting on ...)`) after
   * the open steps, for plans built with the `dependencies()` extension. Off by default.
   */
  readonly dependencies?: boolean | undefined;
  /**
   * The goal's line (`renderGoalLine(goal)` of `@plankit/controller/goal`: objective, status and
   * budget used), written before the closing line. It changes only when the goal does, and
   * the reminder goes at the end of a request, so the cached prefix holds.
   */
  readonly goal?: string | undefined;
}

/**
 * A compact block showing the open steps, for the host to append at the END of a request
 * (never into the cached system prefix, which would break the provider's prompt cache every
 * time the plan changes). Returns `undefined` when there is no plan or no open step. Control
 * characters in the plan's text are written as escapes (`\n`), so a title cannot forge lines,
 * and so is the `<` of a reminder tag the text spells (`\u003c/plan-reminder>`), so a title
 * cannot close the reminder and go on in the user's voice.
 * With `{ dependencies: true }` the `Ready:` and `Blocked:` lines follow the open steps; with
 * `{ goal }` the goal's line (escaped the same way) comes last, before the closing line.
 *
 * @example
 * ```ts
 * const reminder = renderPlanReminder(selectLatest(session, Plan));
 * if (reminder) messages.push({ role: 'user', content: reminder });
 * ```
 * @public
 */
export function renderPlanReminder(
  plan: Plan | undefined,
  options: PlanReminderOptions = {},
): string | undefined {
  const open = openSteps(plan);
  if (plan === undefined || open.length === 0) return undefined;
  const total = plan.steps.length;
  let reminder = `<plan-reminder>\nObjective: ${text(plan.objective)}\nDone: ${total - open.length} of ${total} steps\nOpen:\n`;
  for (const step of open)
    reminder += `${text(step.step_id)} [${step.status}] ${text(step.title)}\n`;
  if (options?.dependencies === true) reminder += `${dependencySummary(plan)}\n`;
  if (typeof options?.goal === 'string' && options.goal.length > 0)
    reminder += `${text(options.goal)}\n`;
  return `${reminder}Keep the plan current with planning_mark_step.\n</plan-reminder>`;
}
