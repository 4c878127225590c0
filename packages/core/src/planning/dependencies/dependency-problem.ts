import { clipText, escapeControl } from '../../internal/refusal-text.ts';

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
// An id the model wrote, quoted: JSON.stringify leaves U+0085, U+2028 and U+2029 as they are.
const quoted = (id: string): string => escapeControl(JSON.stringify(show(id)));

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
 * Edges in one flat array (compressed rows): the steps step `i` depends on are
 * `targets[start[i]]` to `targets[start[i + 1] - 1]`, in list order. Two typed arrays instead
 * of an array per step, so checking a large plan allocates almost nothing.
 */
interface FlatEdges {
  readonly start: Int32Array;
  readonly targets: Int32Array;
}

/**
 * A cycle among the edges as step indexes, first step repeated at the end
 * (`[1, 2, 1]`), or undefined. An iterative depth-first search with an explicit stack:
 * linear in steps plus edges, and no recursion, so 100,000 chained steps cannot overflow.
 */
export function findCycle(edges: readonly (readonly number[])[]): number[] | undefined {
  const start = new Int32Array(edges.length + 1);
  let count = 0;
  for (let i = 0; i < edges.length; i++) {
    start[i] = count;
    count += (edges[i] as readonly number[]).length;
  }
  start[edges.length] = count;
  const targets = new Int32Array(count);
  let e = 0;
  for (const out of edges) for (const target of out) targets[e++] = target;
  return findFlatCycle({ start, targets });
}

// The search of findCycle on flat edges; both visit roots and edges in the same order, so
// they report the same cycle.
function findFlatCycle({ start, targets }: FlatEdges): number[] | undefined {
  const n = start.length - 1;
  // 0 unvisited, 1 on the current path, 2 finished.
  const state = new Uint8Array(n);
  // The next edge of each node on the path to follow.
  const next = start.slice(0, n);
  const path = new Int32Array(n);
  for (let root = 0; root < n; root++) {
    if (state[root] !== 0) continue;
    let depth = 1;
    path[0] = root;
    state[root] = 1;
    while (depth > 0) {
      const node = path[depth - 1] as number;
      const e = next[node] as number;
      if (e < (start[node + 1] as number)) {
        next[node] = e + 1;
        const target = targets[e] as number;
        if (state[target] === 1) {
          const cycle = Array.from(path.subarray(path.lastIndexOf(target, depth - 1), depth));
          cycle.push(target);
          return cycle;
        }
        if (state[target] === 0) {
          state[target] = 1;
          path[depth++] = target;
        }
      } else {
        state[node] = 2;
        depth--;
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
 * form no cycle. Linear in steps plus edges. `index` maps each id to its first step, as
 * {@link indexById} builds it; pass it when the caller has one already.
 */
export function dependencyProblem(
  steps: readonly PlanStep[],
  index?: ReadonlyMap<string, number>,
): DependencyProblem | undefined {
  const n = steps.length;
  // An upper bound on the edges; a longer list is refused before its ids are read.
  let bound = 0;
  for (let i = 0; i < n; i++) {
    const list = (steps[i] as PlanStep).depends_on;
    if (list !== undefined) bound += Math.min(list.length, MAX_DEPENDENCIES);
  }
  if (bound === 0) return undefined;
  const ids = index ?? indexById(steps);
  const start = new Int32Array(n + 1);
  const targets = new Int32Array(bound);
  // listedBy[t] is 1 + the last step whose list named step t: a repeat within one list is
  // found without a set per step.
  const listedBy = new Int32Array(n);
  let edges = 0;
  for (let i = 0; i < n; i++) {
    start[i] = edges;
    const step = steps[i] as PlanStep;
    const list = step.depends_on;
    if (list === undefined) continue;
    // Paths and messages are built only for the refusal, never on the way to a pass.
    if (list.length > MAX_DEPENDENCIES) {
      return {
        code: 'dependency_invalid',
        path: ['steps', i, 'depends_on'],
        message: `Step ${show(step.step_id)} depends on ${list.length} steps; at most ${MAX_DEPENDENCIES} are allowed`,
      };
    }
    for (let d = 0; d < list.length; d++) {
      const target = list[d] as string;
      if (target === step.step_id)
        return invalid(i, d, `Step ${show(step.step_id)} cannot depend on itself`);
      // An unknown id is refused at its first mention, so a repeat is always of a known step.
      const t = ids.get(target);
      if (t === undefined) {
        return invalid(
          i,
          d,
          `Step ${show(step.step_id)} depends on ${quoted(target)}, which is not a step of this plan`,
        );
      }
      if (listedBy[t] === i + 1) {
        return invalid(
          i,
          d,
          `Step ${show(step.step_id)} lists ${show(target)} more than once in depends_on`,
        );
      }
      listedBy[t] = i + 1;
      targets[edges++] = t;
    }
  }
  start[n] = edges;
  if (edges === 0) return undefined;
  const cycle = findFlatCycle({ start, targets });
  if (cycle === undefined) return undefined;
  return {
    code: 'dependency_cycle',
    path: ['steps', cycle[0] as number, 'depends_on'],
    message: `Dependencies must not form a cycle: ${cycleText(steps, cycle)}`,
  };
}

function invalid(step: number, entry: number, message: string): DependencyProblem {
  return { code: 'dependency_invalid', path: ['steps', step, 'depends_on', entry], message };
}
