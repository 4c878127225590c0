import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ControllerError } from '../controller-error.ts';
import { createPlanningController } from '../planning/planning-controller.ts';
import type { CapName } from './default-caps.ts';
import { defineMachine } from './define-machine.ts';
import { type InitialSnapshotOptions, initialSnapshot } from './initial-snapshot.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { machineSnapshotFromJSON } from './machine-snapshot-from-json.ts';
import { replay } from './replay.ts';
import { reportCap } from './report-cap.ts';
import { resume } from './resume.ts';
import { transition } from './transition.ts';

// Each command is data; the runner turns `pick` into one of the outcomes the current state
// accepts, so most events are legal and reach the caps, while some probe every refusal.
type Command =
  | {
      readonly kind: 'outcome';
      readonly pick: number;
      readonly stray: boolean;
      readonly dt: number;
      readonly costUsd: number | undefined;
      readonly tokens: number | undefined;
      readonly tool:
        | { readonly name: string; readonly args: unknown; readonly result: unknown }
        | undefined;
      readonly confidence: number | undefined;
    }
  | { readonly kind: 'cap'; readonly cap: CapName; readonly dt: number }
  | {
      readonly kind: 'resume';
      readonly raise: number;
      readonly discard: boolean;
      readonly dt: number;
    }
  | { readonly kind: 'garbage'; readonly event: unknown };

// Mostly the same call, so stalls happen; sometimes another one, which breaks the run.
const tool = fc.oneof(
  { arbitrary: fc.constant({ name: 'search', args: { q: 'a' }, result: 'same' }), weight: 4 },
  {
    arbitrary: fc.record({
      name: fc.constantFrom('search', 'read'),
      args: fc.constantFrom({ q: 'a' }, { q: 'b' }),
      result: fc.constantFrom('same', 'other'),
    }),
    weight: 1,
  },
);
// The first outcome of a state moves forward, the second mostly loops back (retries); the
// rest exit. Weighting towards the first two keeps runs long enough to reach the caps.
const pick = fc.oneof(
  { arbitrary: fc.constant(0), weight: 6 },
  { arbitrary: fc.constant(1), weight: 3 },
  { arbitrary: fc.nat(20), weight: 1 },
);
const outcome: fc.Arbitrary<Command> = fc.record({
  kind: fc.constant('outcome' as const),
  pick,
  stray: fc.oneof(
    { arbitrary: fc.constant(false), weight: 9 },
    { arbitrary: fc.constant(true), weight: 1 },
  ),
  dt: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 4000 }), weight: 30 },
    { arbitrary: fc.constant(40_000), weight: 1 },
  ),
  costUsd: fc.option(fc.double({ min: 0, max: 0.6, noNaN: true }), { nil: undefined, freq: 1 }),
  tokens: fc.option(fc.nat(600), { nil: undefined }),
  tool: fc.option(tool, { nil: undefined, freq: 4 }),
  confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
});
const garbage: fc.Arbitrary<Command> = fc.record({
  kind: fc.constant('garbage' as const),
  event: fc.oneof(
    fc.constantFrom(
      { outcome: 'valid', now: Number.NaN },
      { outcome: 'valid', now: -1 },
      { outcome: 'nonsense', now: Number.MAX_SAFE_INTEGER },
      { outcome: 'valid', now: Number.MAX_SAFE_INTEGER, costUsd: -1 },
      { outcome: 'valid', now: Number.MAX_SAFE_INTEGER, confidence: 2 },
      JSON.parse('{"outcome":"valid","now":1,"__proto__":{"x":1}}'),
    ),
    fc.anything({ withNullPrototype: true, withObjectString: true }),
  ),
});
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: outcome, weight: 20 },
  {
    arbitrary: fc.record({
      kind: fc.constant('cap' as const),
      cap: fc.constantFrom<CapName>('costUsd', 'turns', 'wallTimeMs', 'tokens', 'stall', 'retries'),
      dt: fc.nat(1000),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('resume' as const),
      raise: fc.integer({ min: 0, max: 3 }),
      discard: fc.boolean(),
      dt: fc.nat(100_000),
    }),
    weight: 3,
  },
  { arbitrary: garbage, weight: 1 },
);

// A machine with every feature: guards, self-loops, a wait state, per-state retries, freezing.
const workshop = defineMachine({
  id: 'workshop',
  initial: 'draft',
  caps: { turns: 6, retries: 2, wallTimeMs: 30_000, costUsd: 0.8, tokens: 3000, stall: 3 },
  soft: { turns: 4, costUsd: 0.5 },
  onCap: { default: 'aborted', retries: 'clarifying' },
  freezeOn: ['costUsd', 'tokens'],
  states: {
    draft: { on: { ready: 'clarifying', stalled: 'clarifying' } },
    clarifying: { kind: 'wait', on: { answered: 'workshop', clear: 'formalizing' } },
    workshop: {
      retries: 4,
      on: {
        round: 'workshop',
        stable: [
          { target: 'formalizing', guard: ({ confidence }) => (confidence ?? 0) >= 0.5 },
          'workshop',
        ],
      },
    },
    formalizing: { on: { compiled: 'review_ready', schema_error: 'workshop' } },
    review_ready: { kind: 'final' },
    aborted: { kind: 'final' },
  },
});

const machines: readonly [string, Machine, InitialSnapshotOptions][] = [
  ['the planning controller', createPlanningController(), { now: 0 }],
  [
    'a freezing planning controller',
    createPlanningController({ freezeOn: ['costUsd', 'turns', 'wallTimeMs'] }),
    { now: 0, caps: { turns: 6, costUsd: 0.8, tokens: 1500 } },
  ],
  [
    'a planning controller with tight caps',
    createPlanningController(),
    { now: 0, caps: { turns: 7, costUsd: 0.6, tokens: 1500, wallTimeMs: 20_000 } },
  ],
  ['a workshop machine', workshop, { now: 0 }],
];

const hits = new Map<string, number>();
function count(key: string): void {
  hits.set(key, (hits.get(key) ?? 0) + 1);
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

const cents = (usd: number) => Math.round(usd * 1e6);

function checkInvariants(machine: Machine, snapshot: MachineSnapshot): void {
  const { caps, counters } = snapshot;
  if (caps.turns !== null) expect(counters.turns).toBeLessThanOrEqual(caps.turns);
  for (const [state, retries] of Object.entries(counters.retries)) {
    const own = machine.states[state]?.retries;
    const limit = own !== undefined ? own : caps.retries;
    if (limit !== null) expect(retries).toBeLessThanOrEqual(limit);
  }
  const last = snapshot.trace[snapshot.trace.length - 1];
  const decided = last?.cap !== null && last?.cap !== undefined && last.cap.action !== 'route';
  // A stall is acted on in the step that reaches it, unless another cap decided that step
  // first (then the held event, or the next call, meets it).
  const routed = last !== undefined && last.kind !== 'cap' && last.outcome !== null;
  if (caps.stall !== null && routed && (!decided || last?.cap?.name === 'stall')) {
    expect(snapshot.stall.count).toBeLessThan(caps.stall);
  }
  // A step that lands while time, cost or tokens are over their caps is a cap step, unless it
  // only resumed a freeze without routing anything.
  if (last !== undefined && !decided && !(last.kind === 'resume' && last.outcome === null)) {
    if (caps.wallTimeMs !== null) expect(counters.elapsedMs).toBeLessThanOrEqual(caps.wallTimeMs);
    if (caps.costUsd !== null)
      expect(cents(counters.costUsd)).toBeLessThanOrEqual(cents(caps.costUsd));
    if (caps.tokens !== null) expect(counters.tokens).toBeLessThanOrEqual(caps.tokens);
  }
  expect(snapshot.status === 'frozen').toBe(snapshot.frozen !== null);
  expect(isDeepFrozen(snapshot)).toBe(true);
}

function runCommands(
  machine: Machine,
  init: InitialSnapshotOptions,
  commands: readonly Command[],
): MachineSnapshot {
  let snapshot = initialSnapshot(machine, init);
  let now = 0;
  for (const step of commands) {
    if (snapshot.status === 'done' && step.kind !== 'outcome') continue;
    const before = JSON.stringify(snapshot);
    let result: ReturnType<typeof transition>;
    switch (step.kind) {
      case 'outcome': {
        const allowed = machine.states[snapshot.state]?.outcomes ?? [];
        const outcomes = allowed.length === 0 || step.stray ? machine.outcomes : allowed;
        now += step.dt;
        result = transition(machine, snapshot, {
          outcome: outcomes[step.pick % outcomes.length] ?? 'none',
          now,
          costUsd: step.costUsd,
          tokens: step.tokens,
          tool: step.tool,
          confidence: step.confidence,
        });
        break;
      }
      case 'cap':
        now += step.dt;
        result = reportCap(machine, snapshot, { cap: step.cap, now });
        break;
      case 'resume': {
        now += step.dt;
        const { caps, counters } = snapshot;
        const raise = step.raise;
        result = resume(machine, snapshot, {
          now,
          discardPending: step.discard,
          caps: {
            turns: caps.turns === null ? null : counters.turns + raise,
            costUsd: caps.costUsd === null ? null : counters.costUsd + raise * 0.2,
            tokens: caps.tokens === null ? null : counters.tokens + raise * 300,
            wallTimeMs: caps.wallTimeMs === null ? null : counters.elapsedMs + raise * 5000,
          },
        });
        break;
      }
      case 'garbage':
        result = transition(machine, snapshot, step.event as never);
        break;
      default: {
        const never: never = step;
        throw new Error(`unknown command ${String(never)}`);
      }
    }
    if (!result.ok) {
      count(`refused:${result.error.code}`);
      expect(ControllerError.isInstance(result.error)).toBe(true);
      expect(JSON.stringify(snapshot)).toBe(before);
      continue;
    }
    snapshot = result.value;
    const last = snapshot.trace[snapshot.trace.length - 1];
    if (last?.cap) count(`cap:${last.cap.name}:${last.cap.action}`);
    for (const signal of snapshot.signals) count(`signal:${signal.type}`);
    count(`status:${snapshot.status}`);
    checkInvariants(machine, snapshot);
  }
  return snapshot;
}

describe.each(machines)('%s: properties', (_, machine, init) => {
  it('never breaks a cap, and a failed call leaves the snapshot as it was', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40, size: 'max' }), (commands) => {
        runCommands(machine, init, commands);
      }),
      { numRuns: 300 },
    );
  });

  it('replays every trace into an equal snapshot, and survives a JSON round trip', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30, size: 'max' }), outcome, (commands, next) => {
        const snapshot = runCommands(machine, init, commands);
        const rebuilt = replay(machine, snapshot.trace, init);
        expect(rebuilt).toEqual({ ok: true, value: snapshot });
        const read = machineSnapshotFromJSON(machine, JSON.stringify(snapshot));
        expect(read).toEqual({ ok: true, value: snapshot });
        if (!read.ok) return;
        // Another process continuing from the stored JSON takes exactly the same step.
        const event = {
          outcome:
            machine.outcomes[next.kind === 'outcome' ? next.pick % machine.outcomes.length : 0] ??
            '',
          now: snapshot.updatedAt + 10,
        };
        expect(transition(machine, read.value, event)).toEqual(
          transition(machine, snapshot, event),
        );
      }),
      { numRuns: 100 },
    );
  });
});

afterAll(() => {
  // The properties must reach every cap and every path they claim to test (each is hit
  // dozens of times per run; see PLANKIT_PRINT_HITS=1).
  const expected = [
    'cap:turns:goto',
    'cap:turns:freeze',
    'cap:retries:goto',
    'cap:wallTimeMs:goto',
    'cap:wallTimeMs:freeze',
    'cap:costUsd:goto',
    'cap:costUsd:freeze',
    'cap:tokens:freeze',
    'cap:stall:route',
    'signal:wrap_up',
    'signal:stalled',
    'status:done',
    'status:waiting',
    'status:frozen',
    'refused:input_invalid',
    'refused:outcome_rejected',
    'refused:machine_done',
    'refused:machine_frozen',
    'refused:machine_not_frozen',
  ];
  if (process.env['PLANKIT_PRINT_HITS']) console.log(Object.fromEntries([...hits].sort()));
  for (const key of expected) expect(hits.get(key) ?? 0, key).toBeGreaterThan(0);
});
