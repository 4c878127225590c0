/**
 * The controller's transition against XState v5's `transition()` in a plain batched loop, the
 * second of the two measurements docs/performance.md reports (the first is the bench's batched
 * case). Rounds alternate the two sides; each side runs `N` transitions from the same snapshot
 * and is timed by process CPU time, which other processes on a busy machine do not inflate the
 * way they inflate wall time. Prints each side's median and the median of the per-round ratios.
 * A second line does the same for a session: `N` chained transitions of a two-state machine
 * continuing one growing history (each round continues from where the last one ended), where a
 * transition that copied the trace would cost O(history).
 *
 * Run: node --conditions=@plankit/source --import tsx packages/controller/bench/transition-loop.ts
 * (N=20000 and ROUNDS=9 by default; set them in the environment). No collection is forced
 * between sides: a forced one moves XState's large garbage out of the timed region and halves
 * its measured cost.
 */
import { createMachine, initialTransition, transition as xstateTransition } from 'xstate';
import {
  createPlanningController,
  defineMachine,
  initialSnapshot,
  type MachineSnapshot,
  type PlanningOutcome,
  type PlanningStage,
  transition,
} from '../src/index.ts';

const planningMachine = createPlanningController();

const NOW = 1_700_000_000_000;
const N = Number(process.env['N'] ?? 20_000);
const ROUNDS = Number(process.env['ROUNDS'] ?? 9);

/** The planning controller as an XState v5 machine: same states, outcomes and targets. */
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

let snapshot: MachineSnapshot<PlanningStage, PlanningOutcome> = initialSnapshot(planningMachine, {
  now: NOW,
});
const machine = xstatePlanning();
let [xsnapshot] = initialTransition(machine);
for (const [index, outcome] of (['sufficient_context', 'success'] as const).entries()) {
  const next = transition(planningMachine, snapshot, { outcome, now: NOW + index + 1 });
  if (!next.ok) throw next.error;
  snapshot = next.value;
  [xsnapshot] = xstateTransition(machine, xsnapshot, { type: outcome });
}
if (xsnapshot.value !== snapshot.state) throw new Error('the two machines disagree');
const event = { outcome: 'valid', now: NOW + 10, confidence: 0.8, costUsd: 0.01 } as const;

let sink: unknown;
/** CPU nanoseconds per call of `step`, over N calls. */
function time(step: () => unknown): number {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) sink = step();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / N;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

/** Runs ROUNDS rounds of the two sides, alternating which goes first; prints the medians. */
function compare(label: string, plankitSide: () => number, xstateSide: () => number): void {
  const plankit: number[] = [];
  const xstate: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let p: number;
    let x: number;
    if (round % 2 === 0) {
      p = plankitSide();
      x = xstateSide();
    } else {
      x = xstateSide();
      p = plankitSide();
    }
    plankit.push(p);
    xstate.push(x);
    ratios.push(x / p);
  }
  console.log(
    `${label}, ${N} transitions x ${ROUNDS} rounds: plankit ${median(plankit).toFixed(0)} ns, XState ${median(xstate).toFixed(0)} ns (CPU time per transition); XState / plankit ${median(ratios).toFixed(1)}x (rounds ${Math.min(...ratios).toFixed(1)}-${Math.max(...ratios).toFixed(1)}x)`,
  );
}

compare(
  'one step',
  () => time(() => transition(planningMachine, snapshot, event)),
  () => time(() => xstateTransition(machine, xsnapshot, { type: 'valid' })),
);

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
const xPingPong = createMachine({
  id: 'ping-pong',
  initial: 'ping',
  states: { ping: { on: { next: 'pong' } }, pong: { on: { next: 'ping' } } },
});
const caps = {
  turns: null,
  retries: null,
  wallTimeMs: null,
  costUsd: null,
  tokens: null,
  stall: null,
};
let session: MachineSnapshot = initialSnapshot(pingPong, { now: NOW, caps });
let xsession = initialTransition(xPingPong)[0];
const next = { outcome: 'next', now: NOW } as const;
compare(
  'session',
  () =>
    time(() => {
      const result = transition(pingPong, session, next);
      if (result.ok) session = result.value;
      return result;
    }),
  () =>
    time(() => {
      [xsession] = xstateTransition(xPingPong, xsession, { type: 'next' });
      return xsession;
    }),
);
void sink;
if (session.trace.length !== N * ROUNDS) throw new Error('the session lost a transition');
