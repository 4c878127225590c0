import { openSteps, type Plan } from '@plankit/core';
import { escapeControl } from '@plankit/core/internal';

/**
 * A compact block showing the open steps, for the host to append at the END of a request
 * (never into the cached system prefix, which would break the provider's prompt cache every
 * time the plan changes). Returns `undefined` when there is no plan or no open step. Control
 * characters in the plan's text are written as escapes (`\n`), so a title cannot forge lines.
 *
 * @example
 * ```ts
 * const reminder = renderPlanReminder(selectLatest(session, Plan));
 * if (reminder) messages.push({ role: 'user', content: reminder });
 * ```
 * @public
 */
export function renderPlanReminder(plan: Plan | undefined): string | undefined {
  const open = openSteps(plan);
  if (plan === undefined || open.length === 0) return undefined;
  const total = plan.steps.length;
  let text = `<plan-reminder>\nObjective: ${escapeControl(plan.objective)}\nDone: ${total - open.length} of ${total} steps\nOpen:\n`;
  for (const step of open)
    text += `${escapeControl(step.step_id)} [${step.status}] ${escapeControl(step.title)}\n`;
  return `${text}Keep the plan current with planning_mark_step.\n</plan-reminder>`;
}
