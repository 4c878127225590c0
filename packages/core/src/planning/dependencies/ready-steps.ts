import type { Plan, PlanStep } from '../plan.ts';

/** A step that waits for open dependencies, and which ones. @public */
export interface BlockedStep {
  /** The waiting step (any status but `done`). */
  readonly step: PlanStep;
  /** Ids of its dependencies that are not done, in `depends_on` order. */
  readonly waitingOn: readonly string[];
}

/** Ids of the steps that are done, for dependency lookups. */
export function doneIds(plan: Plan): Set<string> {
  const done = new Set<string>();
  const steps = plan.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as PlanStep;
    if (step.status === 'done') done.add(step.step_id);
  }
  return done;
}

/** Ids among `step.depends_on` that are not done, in order. */
export function openDependencies(step: PlanStep, done: ReadonlySet<string>): string[] {
  const open: string[] = [];
  const list = step.depends_on;
  if (list === undefined) return open;
  for (let i = 0; i < list.length; i++) {
    const id = list[i] as string;
    if (!done.has(id)) open.push(id);
  }
  return open;
}

/**
 * The steps that can be started now: `pending`, with every dependency done, in plan order.
 * A plan without dependencies has every pending step ready. None for a missing or abandoned
 * plan. Linear in steps plus edges.
 *
 * @public
 */
export function readySteps(plan: Plan | undefined): readonly PlanStep[] {
  if (plan === undefined || plan.status === 'abandoned') return [];
  const done = doneIds(plan);
  const ready: PlanStep[] = [];
  const steps = plan.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as PlanStep;
    if (step.status !== 'pending') continue;
    const list = step.depends_on;
    let open = false;
    if (list !== undefined)
      for (let d = 0; d < list.length && !open; d++) open = !done.has(list[d] as string);
    if (!open) ready.push(step);
  }
  return ready;
}

/**
 * The open steps (not `done`) with at least one dependency that is not done, each with the
 * ids it waits on, in plan order. None for a missing or abandoned plan.
 *
 * @public
 */
export function blockedSteps(plan: Plan | undefined): readonly BlockedStep[] {
  if (plan === undefined || plan.status === 'abandoned') return [];
  const done = doneIds(plan);
  const blocked: BlockedStep[] = [];
  const steps = plan.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as PlanStep;
    if (step.status === 'done') continue;
    const waitingOn = openDependencies(step, done);
    if (waitingOn.length > 0) blocked.push({ step, waitingOn });
  }
  return blocked;
}
