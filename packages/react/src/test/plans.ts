import type { Plan, PlanStep } from '@plankit/core';
import { type PlanView, parsePlanView, planView } from '@plankit/core/plan-view';

/** A plan of `count` steps (`S001`...), the first `done` of them done. */
export function planOf(count: number, done = 0, extra: Partial<PlanStep> = {}): Plan {
  const steps: PlanStep[] = Array.from({ length: count }, (_, i) => ({
    step_id: `S${String(i + 1).padStart(3, '0')}`,
    title: `Step ${i + 1}`,
    details: null,
    status: i < done ? 'done' : 'pending',
    notes: [],
    ...extra,
  }));
  return {
    objective: 'Ship the release',
    status: done === count && count > 0 ? 'completed' : 'active',
    steps,
  };
}

/** `plan` with step `index` changed. */
export function withStep(plan: Plan, index: number, change: Partial<PlanStep>): Plan {
  const steps = plan.steps.map((step, i) => (i === index ? { ...step, ...change } : step));
  const status =
    steps.length > 0 && steps.every((step) => step.status === 'done') ? 'completed' : 'active';
  return { ...plan, status, steps };
}

/** The plan's view as the client gets it: built by core, sent as JSON, parsed back. */
export function wireView(plan: Plan): PlanView {
  const view = planView(plan);
  if (view === null) throw new Error('no view');
  const parsed = parsePlanView(JSON.parse(JSON.stringify(view)));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}
