import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipText } from '../../internal/refusal-text.ts';
import {
  type DependencyProblem,
  dependencyProblem,
  findCycle,
  indexById,
  MAX_DEPENDENCIES,
} from './dependency-problem.ts';

interface Step {
  readonly step_id: string;
  readonly depends_on?: readonly string[] | undefined;
}

const show = (id: string): string => clipText(id, 64);

// The rules written the plain way (a Set per list, an array per step's edges, a recursive
// search in the same order), as they stood before the checks were tuned for large plans.
function referenceProblem(steps: readonly Step[]): DependencyProblem | undefined {
  const index = new Map<string, number>();
  steps.forEach((step, i) => {
    if (!index.has(step.step_id)) index.set(step.step_id, i);
  });
  for (const [i, step] of steps.entries()) {
    const list = step.depends_on ?? [];
    const id = show(step.step_id);
    if (list.length > MAX_DEPENDENCIES) {
      return {
        code: 'dependency_invalid',
        path: ['steps', i, 'depends_on'],
        message: `Step ${id} depends on ${list.length} steps; at most ${MAX_DEPENDENCIES} are allowed`,
      };
    }
    const seen = new Set<string>();
    for (const [d, target] of list.entries()) {
      const path = ['steps', i, 'depends_on', d];
      if (target === step.step_id)
        return { code: 'dependency_invalid', path, message: `Step ${id} cannot depend on itself` };
      if (seen.has(target)) {
        return {
          code: 'dependency_invalid',
          path,
          message: `Step ${id} lists ${show(target)} more than once in depends_on`,
        };
      }
      seen.add(target);
      if (!index.has(target)) {
        return {
          code: 'dependency_invalid',
          path,
          message: `Step ${id} depends on ${JSON.stringify(show(target))}, which is not a step of this plan`,
        };
      }
    }
  }
  const edges = steps.map((step) => (step.depends_on ?? []).map((id) => index.get(id) as number));
  const state = steps.map(() => 0);
  const path: number[] = [];
  const visit = (node: number): number[] | undefined => {
    state[node] = 1;
    path.push(node);
    for (const target of edges[node] ?? []) {
      if (state[target] === 1) return [...path.slice(path.lastIndexOf(target)), target];
      if (state[target] === 0) {
        const cycle = visit(target);
        if (cycle !== undefined) return cycle;
      }
    }
    state[node] = 2;
    path.pop();
    return undefined;
  };
  for (let root = 0; root < steps.length; root++) {
    if (state[root] !== 0) continue;
    const cycle = visit(root);
    if (cycle === undefined) continue;
    const ids = cycle.map((i) => show((steps[i] as Step).step_id));
    const text =
      ids.length <= 20
        ? ids.join(' -> ')
        : `${ids.slice(0, 10).join(' -> ')} -> ... (${ids.length - 20} more) -> ${ids.slice(-10).join(' -> ')}`;
    return {
      code: 'dependency_cycle',
      path: ['steps', cycle[0] as number, 'depends_on'],
      message: `Dependencies must not form a cycle: ${text}`,
    };
  }
  return undefined;
}

// Ids from a small pool, so steps share ids, lists repeat and name themselves, and cycles are
// common; `S404` is never a step. A few lists run past the limit.
const id = fc.constantFrom('S001', 'S002', 'S003', 'S004', 'S005', 'S006', 'S404');
const step = fc.record(
  {
    step_id: fc.constantFrom('S001', 'S002', 'S003', 'S004', 'S005', 'S006'),
    depends_on: fc.oneof(
      { weight: 20, arbitrary: fc.array(id, { maxLength: 4 }) },
      { weight: 1, arbitrary: fc.array(id, { minLength: 65, maxLength: 70 }) },
    ),
  },
  { requiredKeys: ['step_id'] },
);
// Distinct ids in plan order, each depending on a few others: mostly valid, often a cycle.
const uniquePlan = fc.integer({ min: 1, max: 30 }).chain((n) =>
  fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 5 }), {
    minLength: n,
    maxLength: n,
  }),
);

describe('dependencyProblem', () => {
  it('finds the same first problem as the plain rules, on any steps', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), (steps) => {
        const expected = referenceProblem(steps);
        expect(dependencyProblem(steps)).toEqual(expected);
        expect(dependencyProblem(steps, indexById(steps))).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('names the same cycle as the plain search on plans of distinct ids', () => {
    fc.assert(
      fc.property(uniquePlan, (targets) => {
        const steps = targets.map((out, i) => ({
          step_id: `S${String(i + 1).padStart(3, '0')}`,
          depends_on: out.filter((t) => t !== i).map((t) => `S${String(t + 1).padStart(3, '0')}`),
        }));
        const expected = referenceProblem(steps);
        expect(dependencyProblem(steps)).toEqual(expected);
        const edges = steps.map((s) => s.depends_on.map((d) => Number(d.slice(1)) - 1));
        const cycle = findCycle(edges);
        expect(cycle === undefined).toBe(expected === undefined);
        if (cycle !== undefined) expect(expected?.path).toEqual(['steps', cycle[0], 'depends_on']);
      }),
      { numRuns: 2000 },
    );
  });
});
