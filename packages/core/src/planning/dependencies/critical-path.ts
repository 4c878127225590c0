import type { Plan, PlanStep } from '../plan.ts';
import { dependencyEdges, indexById } from './dependency-problem.ts';

/**
 * The longest chain of open steps (not `done`) linked by dependencies, first step first:
 * each step depends on the one before it. Ties go to the chain that ends earliest in plan
 * order. With no dependencies between open steps it is the first open step alone; empty for
 * a missing or abandoned plan or one with no open steps. Linear in steps plus edges (Kahn's
 * order over the open steps, no recursion).
 *
 * @public
 */
export function criticalPath(plan: Plan | undefined): readonly PlanStep[] {
  if (plan === undefined || plan.status === 'abandoned') return [];
  const steps = plan.steps;
  const n = steps.length;
  const edges = dependencyEdges(steps, indexById(steps));
  const open = (i: number): boolean => (steps[i] as PlanStep).status !== 'done';
  // dependents[j] lists the open steps that depend on open step j.
  const dependents: number[][] = Array.from({ length: n }, () => []);
  const waiting = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (!open(i)) continue;
    const out = edges[i] as number[];
    for (let e = 0; e < out.length; e++) {
      const j = out[e] as number;
      if (!open(j)) continue;
      (dependents[j] as number[]).push(i);
      waiting[i] = (waiting[i] as number) + 1;
    }
  }
  const length = new Int32Array(n);
  const previous = new Int32Array(n).fill(-1);
  const queue: number[] = [];
  for (let i = 0; i < n; i++) {
    if (open(i) && waiting[i] === 0) {
      queue.push(i);
      length[i] = 1;
    }
  }
  let best = -1;
  for (let head = 0; head < queue.length; head++) {
    const j = queue[head] as number;
    if (
      best === -1 ||
      (length[j] as number) > (length[best] as number) ||
      ((length[j] as number) === (length[best] as number) && j < best)
    )
      best = j;
    const next = dependents[j] as number[];
    for (let e = 0; e < next.length; e++) {
      const i = next[e] as number;
      if ((length[j] as number) + 1 > (length[i] as number)) {
        length[i] = (length[j] as number) + 1;
        previous[i] = j;
      }
      waiting[i] = (waiting[i] as number) - 1;
      if (waiting[i] === 0) queue.push(i);
    }
  }
  const chain: PlanStep[] = [];
  for (let i = best; i !== -1; i = previous[i] as number) chain.push(steps[i] as PlanStep);
  return chain.reverse();
}
