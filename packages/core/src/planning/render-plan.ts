import { escapeControl } from '../internal/refusal-text.ts';
import { dependencySummary } from './dependencies/dependency-summary.ts';
import type { Plan, PlanStep } from './plan.ts';

/** Options of {@link renderPlan}. @public */
export interface RenderPlanOptions {
  /** Appends `Ready:` and `Blocked:` lines (see `dependencySummary`); off by default. */
  readonly dependencies?: boolean | undefined;
}

/**
 * One step as text: `<id> [<status>] <title>`, then ` | details: <details>` and
 * ` | notes: <n1> | <n2>` when present, and ` | depends on: <ids>` for a step with
 * dependencies (only plans built with the `dependencies()` extension have them). Control characters in the text (line breaks, tabs,
 * U+0000, U+2028, ...) are written as escapes such as `\n`, so a step is always one line,
 * whatever plan it comes from.
 *
 * @public
 */
export function renderStep(step: PlanStep): string {
  let line = `${escapeControl(step.step_id)} [${step.status}] ${escapeControl(step.title)}`;
  if (step.details) line += ` | details: ${escapeControl(step.details)}`;
  if (step.notes.length > 0) line += ` | notes: ${escapeControl(step.notes.join(' | '))}`;
  if (step.depends_on !== undefined && step.depends_on.length > 0)
    line += ` | depends on: ${escapeControl(step.depends_on.join(', '))}`;
  return line;
}

/**
 * A plan as text: `Objective:` and `Status:` lines, a blank line, then one line per step (or
 * `<no steps>`). Text is escaped as in {@link renderStep}, so the lines cannot be forged.
 * With `{ dependencies: true }` and at least one step, a blank line and the `Ready:` and
 * `Blocked:` lines follow.
 *
 * @public
 */
export function renderPlan(plan: Plan, options: RenderPlanOptions = {}): string {
  const body = plan.steps.length === 0 ? '<no steps>' : plan.steps.map(renderStep).join('\n');
  const text = `Objective: ${escapeControl(plan.objective)}\nStatus: ${plan.status}\n\n${body}`;
  return options.dependencies === true && plan.steps.length > 0
    ? `${text}\n\n${dependencySummary(plan)}`
    : text;
}
