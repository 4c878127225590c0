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
  plankit: (): BenchSide => {
    const session = new Session({ clock: () => NOW });
    const [, , , mark] = createPlanningTools(session);
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
function check(): void {
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
  cases: [markStepCase(20), markStepCase(200, 3), markStepCase(2000), invokeCase, addStepCase],
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
  ],
};
