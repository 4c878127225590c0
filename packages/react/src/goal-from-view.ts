import type { PlanView } from '@plankit/core/plan-view';
import type { PlanChecklistGoal } from './plan-checklist-goal.ts';

/**
 * The goal a plan view carries in `fields.goal` (the `goals()` extension of
 * `@plankit/controller/goal` adds it to `planView(session)`), as {@link PlanChecklist} shows
 * it: objective, status and budget used. `null` when the view carries none, or a field that
 * does not read as a goal (no objective or status text), so a foreign field never shows.
 *
 * @example
 * ```tsx
 * const goal = goalFromView(plan);
 * return goal === null ? null : <p>{goal.objective}</p>;
 * ```
 * @public
 */
export function goalFromView(plan: PlanView | null): PlanChecklistGoal | null {
  const field = plan?.fields?.['goal'];
  if (typeof field !== 'object' || field === null || Array.isArray(field)) return null;
  const { objective, status, used } = field as Readonly<Record<string, unknown>>;
  if (typeof objective !== 'string' || typeof status !== 'string') return null;
  return typeof used === 'string' ? { objective, status, used } : { objective, status };
}
