import { isDeepStrictEqual } from 'node:util';
import {
  AddStep,
  createPlanningTools,
  formatStepId,
  invokeTool,
  MarkStep,
  type NewPlanStep,
  Plan,
  type PlanStep,
  type Result,
  registerPlanningReducers,
  Session,
  type SessionSnapshot,
  SetupPlan,
  selectLatest,
} from '@plankit/core';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';

// A fixed clock keeps every run identical; plankit would otherwise call Date.now per dispatch.
const NOW = 1_700_000_000_000;
const NOTE = 'Started by the benchmark.';
const ADDED: readonly NewPlanStep[] = [{ title: 'Added by the benchmark', details: null }];

function expectOk<T, E>(result: Result<T, E>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function initialSteps(size: number): NewPlanStep[] {
  return Array.from({ length: size }, (_, i) => ({ title: `Step ${i + 1}`, details: null }));
}

interface Prepared {
  readonly session: Session;
  readonly plan: Plan;
  readonly snapshot: SessionSnapshot;
}

/** A session holding one active plan of `size` pending steps (S001...). */
function preparePlan(size: number, session: Session = new Session({ clock: () => NOW })): Prepared {
  registerPlanningReducers(session);
  expectOk(
    session.dispatch(SetupPlan, { objective: 'Benchmark plan', initial_steps: initialSteps(size) }),
  );
  const plan = selectLatest(session, Plan);
  if (plan === undefined) throw new Error('the benchmark plan was not set up');
  return { session, plan, snapshot: session.snapshot() };
}

// Middle step: plankit looks the id up with findIndex, so the first step would flatter it.
const middleStep = (size: number): string => formatStepId(Math.ceil(size / 2));

/**
 * The hand-written reducer plankit is measured against: spread, map, and the same "all done ->
 * completed" recomputation; it freezes what it creates, as plankit does.
 */
function spreadMarkStep(plan: Plan, { step_id, status, note }: MarkStep): Plan {
  const steps: readonly PlanStep[] = Object.freeze(
    plan.steps.map((step) =>
      step.step_id === step_id
        ? Object.freeze({
            ...step,
            status,
            notes: note !== null ? Object.freeze([...step.notes, note]) : step.notes,
          })
        : step,
    ),
  );
  const completed = steps.every((step) => step.status === 'done');
  return Object.freeze({ ...plan, status: completed ? 'completed' : 'active', steps });
}

/** The hand-written add: the highest numeric id suffix, then append pending steps after it. */
function spreadAddStep(plan: Plan, added: readonly NewPlanStep[]): Plan {
  let highest = 0;
  for (const step of plan.steps) {
    const n = Number(step.step_id.slice(1));
    if (n > highest) highest = n;
  }
  const fresh = added.map(({ title, details }, i) =>
    Object.freeze({
      step_id: `S${String(highest + i + 1).padStart(3, '0')}`,
      title,
      details,
      status: 'pending' as const,
      notes: Object.freeze([]) as readonly string[],
    }),
  );
  return Object.freeze({ ...plan, steps: Object.freeze([...plan.steps, ...fresh]) });
}

const markValue = (step_id: string): MarkStep => ({ step_id, status: 'in_progress', note: NOTE });

const markName = (size: number): string => `mark_step, ${size.toLocaleString('en-US')} steps`;

function markStepCase(size: number, maxRatio?: number): BenchCase {
  const step_id = middleStep(size);
  return {
    name: markName(size),
    what: 'session.dispatch(MarkStep) vs spread reducer',
    maxRatio,
    plankit: (): BenchSide => {
      const { session, snapshot } = preparePlan(size);
      return {
        // Each run changes the session; rolling back (untimed) makes every sample the same
        // pending -> in_progress mark on the same plan, and keeps the notes from growing.
        reset: () => expectOk(session.rollback(snapshot)),
        run: () => expectOk(session.dispatch(MarkStep, markValue(step_id))),
      };
    },
    baseline: (): BenchSide => {
      const { plan } = preparePlan(size);
      return { run: () => spreadMarkStep(plan, markValue(step_id)) };
    },
  };
}

const INVOKE_SIZE = 200;
const ADD_SIZE = 2000;

const invokeCase: BenchCase = {
  name: `invokeTool mark_step, ${INVOKE_SIZE} steps`,
  what: 'schema + handler + reducer + event vs spread reducer',
  maxRatio: 1.3,
  plankit: (): BenchSide => {
    const session = new Session({ clock: () => NOW });
    const { planning_mark_step: mark } = createPlanningTools(session);
    const { snapshot } = preparePlan(INVOKE_SIZE, session);
    const step_id = middleStep(INVOKE_SIZE);
    return {
      // The rollback also empties the tool-call log, which every successful call appends to.
      reset: () => expectOk(session.rollback(snapshot)),
      run: async () => {
        const result = await invokeTool(
          mark,
          { step_id, status: 'in_progress', note: NOTE },
          { session, now: NOW },
        );
        if (!result.success) throw result.error;
        return result;
      },
    };
  },
  baseline: (): BenchSide => {
    const { plan } = preparePlan(INVOKE_SIZE);
    const step_id = middleStep(INVOKE_SIZE);
    return { run: () => spreadMarkStep(plan, markValue(step_id)) };
  },
};

// Growth with history: the same call on a session that has already logged `calls` calls.
const HISTORY_PLAN = 20;
const HISTORIES = [200, 2_000, 20_000, 100_000] as const;

/** A session with a 20-step plan whose tool-call log holds `calls` mark_step calls. */
async function sessionWithHistory(calls: number): Promise<{
  session: Session;
  mark: ReturnType<typeof createPlanningTools>[3];
  snapshot: SessionSnapshot;
}> {
  const session = new Session({ clock: () => NOW });
  const { planning_mark_step: mark } = createPlanningTools(session);
  preparePlan(HISTORY_PLAN, session);
  const step_id = middleStep(HISTORY_PLAN);
  for (let i = 0; i < calls; i++) {
    const status = i % 2 === 0 ? 'in_progress' : 'pending';
    const result = await invokeTool(mark, { step_id, status, note: null }, { session, now: NOW });
    if (!result.success) throw result.error;
  }
  return { session, mark, snapshot: session.snapshot() };
}

const historyName = (calls: number): string =>
  `invokeTool mark_step after ${calls.toLocaleString('en-US')} calls`;

function historyCase(calls: number): BenchCase {
  return {
    name: historyName(calls),
    what: `invokeTool(mark_step) on a ${HISTORY_PLAN}-step plan with a long log vs spread reducer`,
    plankit: async (): Promise<BenchSide> => {
      const { session, mark, snapshot } = await sessionWithHistory(calls);
      const step_id = middleStep(HISTORY_PLAN);
      return {
        // Back to exactly `calls` logged calls before every sample (untimed, O(1)).
        reset: () => expectOk(session.rollback(snapshot)),
        run: async () => {
          const result = await invokeTool(
            mark,
            { step_id, status: 'in_progress', note: NOTE },
            { session, now: NOW },
          );
          if (!result.success) throw result.error;
          return result;
        },
      };
    },
    baseline: (): BenchSide => {
      const { plan } = preparePlan(HISTORY_PLAN);
      const step_id = middleStep(HISTORY_PLAN);
      return { run: () => spreadMarkStep(plan, markValue(step_id)) };
    },
  };
}

/**
 * Heap bytes per logged call: 100,000 calls on one session, after a full GC when node runs with
 * --expose-gc, otherwise heapUsed deltas (noisier). Printed, not timed.
 */
async function memoryPerCall(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const heap = (): number => {
    gc?.();
    return process.memoryUsage().heapUsed;
  };
  const calls = 100_000;
  const before = heap();
  const held = await sessionWithHistory(calls);
  const after = heap();
  const capped = new Session({ clock: () => NOW, maxLoggedCalls: 1_000 });
  const { planning_mark_step: mark } = createPlanningTools(capped);
  preparePlan(HISTORY_PLAN, capped);
  const beforeCapped = heap();
  for (let i = 0; i < calls; i++) {
    const status = i % 2 === 0 ? 'in_progress' : 'pending';
    await invokeTool(mark, { step_id: 'S010', status, note: null }, { session: capped, now: NOW });
  }
  const afterCapped = heap();
  const how = gc === undefined ? 'heapUsed deltas, no --expose-gc' : 'after a full GC';
  console.log(
    `memory per logged call (${how}): ${((after - before) / calls).toFixed(0)} bytes over ${calls.toLocaleString('en-US')} calls; ` +
      `with maxLoggedCalls 1,000: ${((afterCapped - beforeCapped) / calls).toFixed(1)} bytes per call (${held.session.snapshot().revision} revisions kept live)`,
  );
}

const addStepCase: BenchCase = {
  name: `add_step, ${ADD_SIZE.toLocaleString('en-US')} steps`,
  what: 'session.dispatch(AddStep), 1 step, vs spread + max suffix',
  plankit: (): BenchSide => {
    const { session, snapshot } = preparePlan(ADD_SIZE);
    return {
      reset: () => expectOk(session.rollback(snapshot)),
      run: () => expectOk(session.dispatch(AddStep, { steps: ADDED })),
    };
  },
  baseline: (): BenchSide => {
    const { plan } = preparePlan(ADD_SIZE);
    return { run: () => spreadAddStep(plan, ADDED) };
  },
};

// The runner times plankit against these baselines, so they must compute the same plans.
async function check(): Promise<void> {
  await memoryPerCall();
  for (const size of [20, 200, 2000]) {
    const { session, plan } = preparePlan(size);
    const value = markValue(middleStep(size));
    expectOk(session.dispatch(MarkStep, value));
    if (!isDeepStrictEqual(selectLatest(session, Plan), spreadMarkStep(plan, value))) {
      throw new Error(`spreadMarkStep disagrees with plankit on a ${size}-step plan`);
    }
  }
  const done = preparePlan(1);
  const last: MarkStep = { step_id: 'S001', status: 'done', note: null };
  expectOk(done.session.dispatch(MarkStep, last));
  if (!isDeepStrictEqual(selectLatest(done.session, Plan), spreadMarkStep(done.plan, last))) {
    throw new Error('spreadMarkStep disagrees with plankit on completing a plan');
  }
  const { session, plan } = preparePlan(ADD_SIZE);
  expectOk(session.dispatch(AddStep, { steps: ADDED }));
  if (!isDeepStrictEqual(selectLatest(session, Plan), spreadAddStep(plan, ADDED))) {
    throw new Error('spreadAddStep disagrees with plankit');
  }
}

/** The core's benchmarks: planning reducers and tools next to hand-written spread reducers. */
export const suite: BenchSuite = {
  name: '@plankit/core planning',
  check,
  cases: [
    markStepCase(20),
    markStepCase(200, 3),
    markStepCase(2000),
    invokeCase,
    addStepCase,
    ...HISTORIES.map((calls) => historyCase(calls)),
  ],
  curves: [
    {
      name: 'invokeTool mark_step by history',
      xLabel: 'logged calls',
      points: HISTORIES.map((calls) => ({ x: calls, case: historyName(calls) })),
    },
    {
      name: 'mark_step by plan size',
      xLabel: 'steps',
      points: [20, 200, 2000].map((size) => ({ x: size, case: markName(size) })),
    },
  ],
  growth: [
    {
      name: 'mark_step, 20 -> 200 steps',
      from: markStepCase(20).name,
      to: markStepCase(200).name,
      factor: 10,
    },
    {
      name: 'mark_step, 200 -> 2,000 steps',
      from: markStepCase(200).name,
      to: markStepCase(2000).name,
      factor: 10,
    },
    {
      name: 'invokeTool mark_step, 200 -> 100,000 logged calls',
      from: historyName(200),
      to: historyName(100_000),
      factor: 1.5,
    },
    {
      name: 'invokeTool mark_step, 200 -> 20,000 logged calls',
      from: historyName(200),
      to: historyName(20_000),
      factor: 1.5,
    },
  ],
};
