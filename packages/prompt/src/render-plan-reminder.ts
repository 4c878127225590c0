import { openSteps, type Plan } from '@plankit/core';
import { escapeControl } from '@plankit/core/internal';
import { dependencySummary } from '@plankit/core/plan-model';

/** Options of {@link renderPlanReminder}. @public */
export interface PlanReminderOptions {
  /**
   * Adds core's `dependencySummary` (`Ready: ...` and `Blocked: ... (waiting on ...)`) after
   * the open steps, for plans built with the `dependencies` option. Off by default.
   */
  readonly dependencies?: boolean | undefined;
}

/**
 * A compact block showing the open steps, for the host to append at the END of a request
 * (never into the cached system prefix, which would break the provider's prompt cache every
 * time the plan changes). Returns `undefined` when there is no plan or no open step. Control
 * characters in the plan's text are written as escapes (`\n`), so a title cannot forge lines.
 * With `{ dependencies: true }` the `Ready:` and `Blocked:` lines follow the open steps.
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
  let text = `<plan-reminder>\nObjective: ${escapeControl(plan.objective)}\nDone: ${total - open.length} of ${total} steps\nOpen:\n`;
  for (const step of open)
    text += `${escapeControl(step.step_id)} [${step.status}] ${escapeControl(step.title)}\n`;
  if (options?.dependencies === true) text += `${dependencySummary(plan)}\n`;
  return `${text}Keep the plan current with planning_mark_step.\n</plan-reminder>`;
}
