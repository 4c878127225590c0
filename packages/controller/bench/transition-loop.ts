/**
 * The controller's transition against XState v5's `transition()` in a plain batched loop, the
 * second of the two measurements docs/performance.md reports (the first is the bench's batched
 * case). Rounds alternate the two sides; each side runs `N` transitions from the same snapshot
 * and is timed by process CPU time, which other processes on a busy machine do not inflate the
 * way they inflate wall time. Prints each side's median and the median of the per-round ratios.
 *
 * Run: node --conditions=@plankit/source --import tsx packages/controller/bench/transition-loop.ts
 * (N=20000 and ROUNDS=9 by default; set them in the environment).
 */
import { createMachine, initialTransition, transition as xstateTransition } from 'xstate';
import {
  initialSnapshot,
  type MachineSnapshot,
  type PlanningOutcome,
  type PlanningStage,
  planningController,
  transition,
} from '../src/index.ts';

const NOW = 1_700_000_000_000;
const N = Number(process.env['N'] ?? 20_000);
const ROUNDS = Number(process.env['ROUNDS'] ?? 9);

/** The planning controller as an XState v5 machine: same states, outcomes and targets. */
function xstatePlanning() {
  const states: Record<string, { on?: Record<string, string>; type?: 'final' }> = {};
  for (const name of planningController.stateNames) {
    const state = planningController.states[name];
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
  return createMachine({ id: planningController.id, initial: planningController.initial, states });
}

let snapshot: MachineSnapshot<PlanningStage, PlanningOutcome> = initialSnapshot(
  planningController,
  { now: NOW },
);
const machine = xstatePlanning();
let [xsnapshot] = initialTransition(machine);
for (const [index, outcome] of (['sufficient_context', 'success'] as const).entries()) {
  const next = transition(planningController, snapshot, { outcome, now: NOW + index + 1 });
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
const plankit: number[] = [];
const xstate: number[] = [];
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const plankitSide = () => time(() => transition(planningController, snapshot, event));
  const xstateSide = () => time(() => xstateTransition(machine, xsnapshot, { type: 'valid' }));
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
void sink;
console.log(
  `${N} transitions x ${ROUNDS} rounds: plankit ${median(plankit).toFixed(0)} ns, XState ${median(xstate).toFixed(0)} ns (CPU time per transition); XState / plankit ${median(ratios).toFixed(1)}x (rounds ${Math.min(...ratios).toFixed(1)}-${Math.max(...ratios).toFixed(1)}x)`,
);
