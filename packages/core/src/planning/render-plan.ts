import type { Plan, PlanStep } from './plan.ts';

/**
 * One step as text: `<id> [<status>] <title>`, then ` | details: <details>` and
 * ` | notes: <n1> | <n2>` when present.
 *
 * @public
 */
export function renderStep(step: PlanStep): string {
  let line = `${step.step_id} [${step.status}] ${step.title}`;
  if (step.details) line += ` | details: ${step.details}`;
  if (step.notes.length > 0) line += ` | notes: ${step.notes.join(' | ')}`;
  return line;
}

/**
 * A plan as text: `Objective:` and `Status:` lines, a blank line, then one line per step (or
 * `<no steps>`).
 *
 * @public
 */
export function renderPlan(plan: Plan): string {
  const body = plan.steps.length === 0 ? '<no steps>' : plan.steps.map(renderStep).join('\n');
  return `Objective: ${plan.objective}\nStatus: ${plan.status}\n\n${body}`;
}
