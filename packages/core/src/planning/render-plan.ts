import { escapeControl } from '../internal/refusal-text.ts';
import type { Plan, PlanStep } from './plan.ts';

/**
 * One step as text: `<id> [<status>] <title>`, then ` | details: <details>` and
 * ` | notes: <n1> | <n2>` when present. Control characters in the text (line breaks, tabs,
 * U+0000, U+2028, ...) are written as escapes such as `\n`, so a step is always one line,
 * whatever plan it comes from.
 *
 * @public
 */
export function renderStep(step: PlanStep): string {
  let line = `${escapeControl(step.step_id)} [${step.status}] ${escapeControl(step.title)}`;
  if (step.details) line += ` | details: ${escapeControl(step.details)}`;
  if (step.notes.length > 0) line += ` | notes: ${escapeControl(step.notes.join(' | '))}`;
  return line;
}

/**
 * A plan as text: `Objective:` and `Status:` lines, a blank line, then one line per step (or
 * `<no steps>`). Text is escaped as in {@link renderStep}, so the lines cannot be forged.
 *
 * @public
 */
export function renderPlan(plan: Plan): string {
  const body = plan.steps.length === 0 ? '<no steps>' : plan.steps.map(renderStep).join('\n');
  return `Objective: ${escapeControl(plan.objective)}\nStatus: ${plan.status}\n\n${body}`;
}
