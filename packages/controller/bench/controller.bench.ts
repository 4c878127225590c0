import {
  createPlanningController,
  defineMachine,
  initialSnapshot,
  type MachineSnapshot,
  type PlanningOutcome,
  type PlanningStage,
  transition,
} from '@plankit/controller';
import { type Budget, createBudget, reserveBudget, settleBudget } from '@plankit/controller/budget';
import type { Result } from '@plankit/core';
import { createMachine, initialTransition, transition as xstateTransition } from 'xstate';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';

const planningMachine = createPlanningController();

// A fixed clock keeps every run identical.
const NOW = 1_700_000_000_000;

function expectOk<T, E>(result: Result<T, E>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** The planning controller's definition as an XState v5 machine: same states, outcomes, targets. */
function xstatePlanning() {
  const states: Record<string, { on?: Record<string, string>; type?: 'final' }> = {};
  for (const name of planningMachine.stateNames) {
    const state = planningMachine.states[name];
    if (state.kind === 'final') {
      states[name] = { type: 'final' };
      continue;
    }
    const on: Record<string, string> = {};
    for (const outcome of state.outcomes) {
      const target = state.on[outcome]?.[0]?.target;
      if (target !== undefined) on[outcome] = target;
    }
    states[name] = { on };
  }
  return createMachine({ id: planningMachine.id, initial: planningMachine.initial, states });
}

const HAPPY_PATH: readonly PlanningOutcome[] = [
  'sufficient_context',
  'success',
  'valid',
  'success',
  'valid',
  'success',
  'valid',
  'approved',
];

/** The planning controller two steps in, at VALIDATE_OUTLINE, as both libraries hold it. */
function atValidateOutline() {
  let snapshot: MachineSnapshot<PlanningStage, PlanningOutcome> = initialSnapshot(planningMachine, {
    now: NOW,
  });
  for (const [index, outcome] of HAPPY_PATH.slice(0, 2).entries()) {
    snapshot = expectOk(transition(planningMachine, snapshot, { outcome, now: NOW + index + 1 }));
  }
  const machine = xstatePlanning();
  let [xsnapshot] = initialTransition(machine);
  for (const outcome of HAPPY_PATH.slice(0, 2))
    [xsnapshot] = xstateTransition(machine, xsnapshot, { type: outcome });
  return { snapshot, machine, xsnapshot };
}

// Sub-microsecond work is timed in batches: one tinybench sample costs the timer and the task
// wrapper about a hundred nanoseconds, which would otherwise be a third of a plankit transition.
// At a thousand transitions per sample that overhead is under 0.1% of the sample.
const TRANSITIONS_PER_SAMPLE = 1000;
const RUNS_PER_SAMPLE = 100;

const transitionCase: BenchCase = {
  name: `planning controller transition, ${TRANSITIONS_PER_SAMPLE} per sample`,
  what: `${TRANSITIONS_PER_SAMPLE} x transition(planning controller, VALIDATE_OUTLINE, valid) vs as many XState v5 transition() calls on the same definition; target 40x faster`,
  maxRatio: 1 / 40,
  plankit: (): BenchSide => {
    const { snapshot } = atValidateOutline();
    const event = { outcome: 'valid', now: NOW + 10, confidence: 0.8, costUsd: 0.01 } as const;
    return {
      run: () => {
        let last: MachineSnapshot<PlanningStage, PlanningOutcome> | undefined;
        for (let i = 0; i < TRANSITIONS_PER_SAMPLE; i++) {
          last = expectOk(transition(planningMachine, snapshot, event));
        }
        return last;
      },
    };
  },
  baseline: (): BenchSide => {
    const { machine, xsnapshot } = atValidateOutline();
    return {
      run: () => {
        let last: unknown;
        for (let i = 0; i < TRANSITIONS_PER_SAMPLE; i++) {
          last = xstateTransition(machine, xsnapshot, { type: 'valid' })[0];
        }
        return last;
      },
    };
  },
};

const runCase: BenchCase = {
  name: `planning controller run, 8 transitions, ${RUNS_PER_SAMPLE} per sample`,
  what: `${RUNS_PER_SAMPLE} x COLLECT_CONTEXT to COMPLETE, plankit vs XState v5 transition() on the same definition; target 40x faster`,
  maxRatio: 1 / 40,
  plankit: (): BenchSide => {
    const start = initialSnapshot(planningMachine, { now: NOW });
    return {
      run: () => {
        let snapshot = start;
        for (let run = 0; run < RUNS_PER_SAMPLE; run++) {
          snapshot = start;
          for (let i = 0; i < HAPPY_PATH.length; i++) {
            const outcome = HAPPY_PATH[i] as PlanningOutcome;
            snapshot = expectOk(
              transition(planningMachine, snapshot, { outcome, now: NOW + i + 1 }),
            );
          }
        }
        return snapshot;
      },
    };
  },
  baseline: (): BenchSide => {
    const machine = xstatePlanning();
    const [start] = initialTransition(machine);
    return {
      run: () => {
        let snapshot = start;
        for (let run = 0; run < RUNS_PER_SAMPLE; run++) {
          snapshot = start;
          for (const outcome of HAPPY_PATH)
            [snapshot] = xstateTransition(machine, snapshot, { type: outcome });
        }
        return snapshot;
      },
    };
  },
};

/** Two work states that hand over to each other forever: a session of any length. */
const pingPong = defineMachine({
  id: 'ping-pong',
  initial: 'ping',
  onCap: { default: 'stopped' },
  states: {
    ping: { on: { next: 'pong' } },
    pong: { on: { next: 'ping' } },
    stopped: { kind: 'final' },
  },
});
const NO_CAPS = {
  turns: null,
  retries: null,
  wallTimeMs: null,
  costUsd: null,
  tokens: null,
  stall: null,
} as const;
const GROWTH_PER_SAMPLE = 1000;
const HISTORIES = [100, 2000, 20_000] as const;

/** ping-pong after `prior` transitions: the snapshot carries a trace of that many entries. */
function afterHistory(prior: number): MachineSnapshot {
  let snapshot: MachineSnapshot = initialSnapshot(pingPong, { now: NOW, caps: NO_CAPS });
  for (let i = 0; i < prior; i++)
    snapshot = expectOk(transition(pingPong, snapshot, { outcome: 'next', now: NOW }));
  return snapshot;
}

/** ping-pong as an XState v5 machine. */
function xstatePingPong() {
  return createMachine({
    id: 'ping-pong',
    initial: 'ping',
    states: { ping: { on: { next: 'pong' } }, pong: { on: { next: 'ping' } } },
  });
}

function growthName(prior: number): string {
  return `transition after ${prior.toLocaleString('en-US')} prior transitions, ${GROWTH_PER_SAMPLE} per sample`;
}

/**
 * A session's transitions once it has a history: each sample continues the session by
 * `GROWTH_PER_SAMPLE` transitions from a snapshot with `prior` trace entries. A transition that
 * copied the trace would cost O(prior) here; XState, which keeps no history, is the baseline.
 */
function growthCase(prior: number): BenchCase {
  return {
    name: growthName(prior),
    what: `${GROWTH_PER_SAMPLE} chained transitions of a two-state machine after ${prior} prior ones vs as many XState v5 transition() calls`,
    plankit: (): BenchSide => {
      const start = afterHistory(prior);
      const event = { outcome: 'next', now: NOW } as const;
      return {
        run: () => {
          let snapshot = start;
          for (let i = 0; i < GROWTH_PER_SAMPLE; i++)
            snapshot = expectOk(transition(pingPong, snapshot, event));
          return snapshot;
        },
      };
    },
    baseline: (): BenchSide => {
      const machine = xstatePingPong();
      let [start] = initialTransition(machine);
      for (let i = 0; i < prior; i++) [start] = xstateTransition(machine, start, { type: 'next' });
      return {
        run: () => {
          let snapshot = start;
          for (let i = 0; i < GROWTH_PER_SAMPLE; i++)
            [snapshot] = xstateTransition(machine, snapshot, { type: 'next' });
          return snapshot;
        },
      };
    },
  };
}

interface Ledger {
  readonly spent: number;
  readonly held: readonly { readonly id: string; readonly usd: number }[];
}

/** The hand-written baseline: an immutable ledger with spread copies and one cap, no checks. */
function spreadReserve(ledger: Ledger, id: string, usd: number, cap: number): Ledger {
  const reserved = ledger.held.reduce((sum, item) => sum + item.usd, 0);
  if (ledger.spent + reserved + usd > cap) throw new Error('over the cap');
  return Object.freeze({
    ...ledger,
    held: Object.freeze([...ledger.held, Object.freeze({ id, usd })]),
  });
}

function spreadSettle(ledger: Ledger, id: string, usd: number): Ledger {
  return Object.freeze({
    spent: ledger.spent + usd,
    held: Object.freeze(ledger.held.filter((item) => item.id !== id)),
  });
}

function budgetPair(budget: Budget): Budget {
  const held = expectOk(
    reserveBudget(budget, { id: 'call', usd: 0.05, tokens: 1200, now: NOW + 1 }),
  );
  return expectOk(settleBudget(held, { id: 'call', usd: 0.04, tokens: 900, now: NOW + 2 }));
}

function budgetCase(timeZone: string): BenchCase {
  return {
    name: `budget reserve + settle, ${timeZone}`,
    what: 'reserveBudget then settleBudget (checks, 4 caps, day and turn ledgers) vs a spread ledger',
    plankit: (): BenchSide => {
      const budget = createBudget({ now: NOW, timeZone });
      return { run: () => budgetPair(budget) };
    },
    baseline: (): BenchSide => {
      const ledger: Ledger = Object.freeze({ spent: 0, held: Object.freeze([]) });
      return { run: () => spreadSettle(spreadReserve(ledger, 'call', 0.05, 2), 'call', 0.04) };
    },
  };
}

// The runner times plankit against XState, so both must follow the same definition.
function check(): void {
  const machine = xstatePlanning();
  let [xsnapshot] = initialTransition(machine);
  let snapshot = initialSnapshot(planningMachine, { now: NOW });
  for (const [index, outcome] of HAPPY_PATH.entries()) {
    [xsnapshot] = xstateTransition(machine, xsnapshot, { type: outcome });
    snapshot = expectOk(transition(planningMachine, snapshot, { outcome, now: NOW + index + 1 }));
    if (xsnapshot.value !== snapshot.state) {
      throw new Error(
        `XState is in ${String(xsnapshot.value)}, plankit in ${snapshot.state} after ${outcome}`,
      );
    }
  }
  if (xsnapshot.status !== 'done' || snapshot.status !== 'done')
    throw new Error('both machines must end done');
  const pingPongX = xstatePingPong();
  let [xsession] = initialTransition(pingPongX);
  for (let i = 0; i < 101; i++)
    [xsession] = xstateTransition(pingPongX, xsession, { type: 'next' });
  const session = afterHistory(101);
  if (xsession.value !== session.state || session.trace.length !== 101)
    throw new Error(
      `ping-pong: XState is in ${String(xsession.value)}, plankit in ${session.state}`,
    );
  const settled = budgetPair(createBudget({ now: NOW }));
  if (settled.session.spentUsd !== 0.04 || settled.reservations.length !== 0)
    throw new Error('budget pair is wrong');
}

/** The controller's benchmarks: transitions beside XState v5 (fresh and after a long history), and budget pairs. */
export const suite: BenchSuite = {
  name: '@plankit/controller',
  check,
  cases: [
    transitionCase,
    runCase,
    ...HISTORIES.map(growthCase),
    budgetCase('UTC'),
    budgetCase('Europe/Berlin'),
  ],
  growth: [
    {
      name: 'transition, 100 -> 20,000 prior transitions',
      from: growthName(100),
      to: growthName(20_000),
      factor: 1.5,
    },
  ],
  curves: [
    {
      name: 'controller transition by history',
      xLabel: 'prior transitions',
      points: HISTORIES.map((prior) => ({ x: prior, case: growthName(prior) })),
    },
  ],
};
