import { clipText } from '../../internal/refusal-text.ts';

// Structural, so plan.ts (whose schema calls dependencyProblem) need not be imported here.
interface PlanStep {
  readonly step_id: string;
  readonly depends_on?: readonly string[] | undefined;
}

/**
 * The most ids one step's `depends_on` may list. Longer lists are refused before any id is
 * looked up, so a list of 10,000 ids costs one length check.
 *
 * @public
 */
export const MAX_DEPENDENCIES = 64;

/** A broken dependency rule: where (a zod-style path) and what, without a final full stop. */
export interface DependencyProblem {
  /** `'dependency_cycle'` for a cycle, `'dependency_invalid'` for any other broken rule. */
  readonly code: 'dependency_invalid' | 'dependency_cycle';
  /** The path of the offending field, such as `['steps', 2, 'depends_on', 0]`. */
  readonly path: readonly (string | number)[];
  /** The rule it breaks, naming the steps. */
  readonly message: string;
}

const show = (id: string): string => clipText(id, 64);

/** The index of every step by id (ids are unique in a valid plan; the first one wins). */
export function indexById(steps: readonly PlanStep[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < steps.length; i++) {
    const id = (steps[i] as PlanStep).step_id;
    if (!index.has(id)) index.set(id, i);
  }
  return index;
}

/**
 * The edges as indexes: `edges[i]` lists the steps step `i` depends on. Assumes every id
 * exists (checked first by {@link dependencyProblem}); unknown ids are skipped.
 */
export function dependencyEdges(
  steps: readonly PlanStep[],
  index: Map<string, number>,
): number[][] {
  const edges: number[][] = [];
  for (let i = 0; i < steps.length; i++) {
    const list = (steps[i] as PlanStep).depends_on;
    const out: number[] = [];
    if (list !== undefined) {
      for (let d = 0; d < list.length; d++) {
        const target = index.get(list[d] as string);
        if (target !== undefined) out.push(target);
      }
    }
    edges.push(out);
  }
  return edges;
}

/**
 * A cycle among the edges as step indexes, first step repeated at the end
 * (`[1, 2, 1]`), or undefined. An iterative depth-first search with an explicit stack:
 * linear in steps plus edges, and no recursion, so 100,000 chained steps cannot overflow.
 */
export function findCycle(edges: readonly (readonly number[])[]): number[] | undefined {
  const n = edges.length;
  // 0 unvisited, 1 on the current path, 2 finished.
  const state = new Uint8Array(n);
  const next = new Int32Array(n);
  const path: number[] = [];
  for (let root = 0; root < n; root++) {
    if (state[root] !== 0) continue;
    path.push(root);
    state[root] = 1;
    while (path.length > 0) {
      const node = path[path.length - 1] as number;
      const out = edges[node] as readonly number[];
      const e = next[node] as number;
      if (e < out.length) {
        next[node] = e + 1;
        const target = out[e] as number;
        if (state[target] === 1) {
          const cycle = path.slice(path.lastIndexOf(target));
          cycle.push(target);
          return cycle;
        }
        if (state[target] === 0) {
          state[target] = 1;
          path.push(target);
        }
      } else {
        state[node] = 2;
        path.pop();
      }
    }
  }
  return undefined;
}

/** A cycle as text: `S002 -> S003 -> S002`, at most 20 ids shown. */
export function cycleText(steps: readonly PlanStep[], cycle: readonly number[]): string {
  const ids = cycle.map((i) => show((steps[i] as PlanStep).step_id));
  if (ids.length <= 20) return ids.join(' -> ');
  return `${ids.slice(0, 10).join(' -> ')} -> ... (${ids.length - 20} more) -> ${ids.slice(-10).join(' -> ')}`;
}

/**
 * The first dependency rule the steps break, or undefined. Each `depends_on` lists at most
 * {@link MAX_DEPENDENCIES} ids of other steps of the same plan, each once; and the steps
 * form no cycle. Linear in steps plus edges.
 */
export function dependencyProblem(steps: readonly PlanStep[]): DependencyProblem | undefined {
  const index = indexById(steps);
  let edgeCount = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as PlanStep;
    const list = step.depends_on;
    if (list === undefined) continue;
    const id = show(step.step_id);
    const path = ['steps', i, 'depends_on'];
    if (list.length > MAX_DEPENDENCIES) {
      return {
        code: 'dependency_invalid',
        path,
        message: `Step ${id} depends on ${list.length} steps; at most ${MAX_DEPENDENCIES} are allowed`,
      };
    }
    const seen = new Set<string>();
    for (let d = 0; d < list.length; d++) {
      const target = list[d] as string;
      const where = [...path, d];
      if (target === step.step_id)
        return {
          code: 'dependency_invalid',
          path: where,
          message: `Step ${id} cannot depend on itself`,
        };
      if (seen.has(target)) {
        return {
          code: 'dependency_invalid',
          path: where,
          message: `Step ${id} lists ${show(target)} more than once in depends_on`,
        };
      }
      seen.add(target);
      if (!index.has(target)) {
        return {
          code: 'dependency_invalid',
          path: where,
          message: `Step ${id} depends on ${JSON.stringify(show(target))}, which is not a step of this plan`,
        };
      }
    }
    edgeCount += list.length;
  }
  if (edgeCount === 0) return undefined;
  const cycle = findCycle(dependencyEdges(steps, index));
  if (cycle === undefined) return undefined;
  return {
    code: 'dependency_cycle',
    path: ['steps', cycle[0] as number, 'depends_on'],
    message: `Dependencies must not form a cycle: ${cycleText(steps, cycle)}`,
  };
}
