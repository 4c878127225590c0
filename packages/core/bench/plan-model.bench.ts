import { isDeepStrictEqual } from 'node:util';
import { Plan, type PlanStep } from '@plankit/core';
import { readySteps } from '@plankit/core/plan-model';
import * as z from 'zod';
import type { BenchCase, BenchSuite } from '../../../scripts/bench.ts';
import { dependencyProblem } from '../src/planning/dependencies/dependency-problem.ts';

const STEPS = 2_000;
const EDGES = 5_000;

const stepId = (i: number): string => `S${String(i + 1).padStart(3, '0')}`;

/**
 * A 2,000-step plan with 5,000 dependency edges, each from a later step to an earlier one
 * (so the graph is acyclic), from a fixed-seed generator; about a third of the steps done.
 */
function bigPlan(): Plan {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const deps: Set<string>[] = Array.from({ length: STEPS }, () => new Set());
  let edges = 0;
  while (edges < EDGES) {
    const to = 1 + Math.floor(random() * (STEPS - 1));
    const from = Math.floor(random() * to);
    const set = deps[to] as Set<string>;
    if (set.has(stepId(from)) || set.size >= 64) continue;
    set.add(stepId(from));
    edges++;
  }
  const steps: PlanStep[] = deps.map((set, i) => ({
    step_id: stepId(i),
    title: `Step ${i + 1}`,
    details: null,
    status: i % 3 === 0 ? 'done' : 'pending',
    notes: [],
    depends_on: [...set],
  }));
  return { objective: 'Benchmark plan', status: 'active', steps };
}

const PLAN = bigPlan();

/** The baseline: a plain Kahn's algorithm over the same steps, ids looked up in a Map. */
function kahnIsAcyclic(plan: Plan): boolean {
  const index = new Map<string, number>();
  plan.steps.forEach((step, i) => {
    index.set(step.step_id, i);
  });
  const dependents: number[][] = plan.steps.map(() => []);
  const waiting = plan.steps.map((step) => step.depends_on?.length ?? 0);
  plan.steps.forEach((step, i) => {
    for (const id of step.depends_on ?? []) dependents[index.get(id) as number]?.push(i);
  });
  const queue: number[] = [];
  waiting.forEach((count, i) => {
    if (count === 0) queue.push(i);
  });
  let seen = 0;
  while (seen < queue.length) {
    const j = queue[seen++] as number;
    for (const i of dependents[j] as number[]) if (--(waiting[i] as number) === 0) queue.push(i);
  }
  return seen === plan.steps.length;
}

/** The baseline ready list: pending steps whose dependencies are all done, by filter/every. */
function naiveReady(plan: Plan): PlanStep[] {
  const done = new Set(plan.steps.filter((s) => s.status === 'done').map((s) => s.step_id));
  return plan.steps.filter(
    (s) => s.status === 'pending' && (s.depends_on ?? []).every((id) => done.has(id)),
  );
}

// The same shape as `Plan` (strict objects, the same fields, enums and optionals), with none of
// plankit's invariants: what any app that stores a plan would parse anyway.
const BarePlan = z.strictObject({
  objective: z.string(),
  status: z.enum(['active', 'completed', 'abandoned']),
  steps: z.array(
    z.strictObject({
      step_id: z.string(),
      title: z.string(),
      details: z.string().nullable(),
      status: z.enum(['pending', 'in_progress', 'blocked', 'done']),
      notes: z.array(z.string()),
      depends_on: z.array(z.string()).optional(),
      owner: z.string().optional(),
    }),
  ),
});

// The dependency rules alone (each list at most 64 ids of other steps, each once, no cycle,
// the cycle named when there is one), as the Plan schema and the dependency tools run them.
const dependencyCase: BenchCase = {
  name: `dependency rules, ${STEPS} steps, ${EDGES} edges`,
  what: 'dependencyProblem (limits, self, repeats, unknown ids, iterative DFS) vs plain Kahn',
  maxRatio: 1.5,
  plankit: () => ({ run: () => dependencyProblem(PLAN.steps) === undefined }),
  baseline: () => ({ run: () => kahnIsAcyclic(PLAN) }),
};

// What restoring a plan costs: the whole schema, every invariant (ids, text rules, status,
// owners, dependencies), against zod parsing the same shape with no invariant.
const parseCase: BenchCase = {
  name: `Plan parse, ${STEPS} steps, ${EDGES} edges`,
  what: 'Plan.safeParse (shape and every invariant) vs zod parse of the same shape alone',
  maxRatio: 3,
  plankit: () => ({ run: () => Plan.safeParse(PLAN).success }),
  baseline: () => ({ run: () => BarePlan.safeParse(PLAN).success }),
};

const readyCase: BenchCase = {
  name: `readySteps, ${STEPS} steps, ${EDGES} edges`,
  what: 'readySteps vs filter/every over a Set of done ids',
  maxRatio: 1.5,
  plankit: () => ({ run: () => readySteps(PLAN).length }),
  baseline: () => ({ run: () => naiveReady(PLAN).length }),
};

/** What `npm run bench` runs from this file. */
export const suite: BenchSuite = {
  name: 'plan model (dependencies)',
  cases: [dependencyCase, parseCase, readyCase],
  check: () => {
    if (!kahnIsAcyclic(PLAN) || dependencyProblem(PLAN.steps) !== undefined)
      throw new Error('the benchmark plan should be acyclic');
    const full = Plan.safeParse(PLAN);
    const bare = BarePlan.safeParse(PLAN);
    if (!full.success || !bare.success || !isDeepStrictEqual(full.data, bare.data))
      throw new Error('Plan and the bare schema should accept the plan and return the same value');
    if (readySteps(PLAN).length !== naiveReady(PLAN).length)
      throw new Error('readySteps and the baseline disagree');
  },
};
