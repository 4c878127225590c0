import {
  type AnyTool,
  createPlanningTools,
  invokeTool,
  type PlankitEvent,
  Session,
  selectLatest,
  snapshotFromJSON,
  snapshotToJSON,
} from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allowedOutcomes } from './engine/allowed-outcomes.ts';
import { ControllerSnapshot } from './engine/controller-snapshot.ts';
import { initialSnapshot } from './engine/initial-snapshot.ts';
import type { MachineSnapshot } from './engine/machine-snapshot.ts';
import { transition } from './engine/transition.ts';
import { createPlanningController } from './planning/planning-controller.ts';
import { registerControllerReducers } from './register-controller-reducers.ts';

// The replay contract (specs/replay-contract.md): what a durable workflow re-runs after a crash,
// from the same snapshot with the same time and ids, gives the same session and the same events.

const machine = createPlanningController({ approval_policy: 'milestone_approvals' });
const SESSION_ID = 'replay-contract';

/** A recorded step of an agent: a tool call as the model made it, or a controller outcome. */
type Step =
  | { readonly kind: 'tool'; readonly tool: string; readonly args: unknown }
  | {
      readonly kind: 'outcome';
      readonly pick: number;
      readonly confidence: number;
      readonly costUsd: number;
    };

/** A session with the planning tools, four extensions and the controller, on a given clock. */
function agent(clock: () => number) {
  const session = new Session({ sessionId: SESSION_ID, clock });
  registerControllerReducers(session);
  const tools = createPlanningTools(session, {
    extensions: [dependencies(), batch(), owners({ agent: 'worker-1' }), history()],
  });
  const byName = new Map<string, AnyTool>(tools.map((tool) => [tool.name, tool]));
  return { session, byName };
}

type Agent = ReturnType<typeof agent>;

/** Runs the steps in order; returns what each step answered (tool results and refusals too). */
async function run(live: Agent, steps: readonly Step[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const step of steps) {
    if (step.kind === 'tool') {
      const tool = live.byName.get(step.tool) as AnyTool;
      answers.push(await invokeTool(tool, step.args, { session: live.session }));
      continue;
    }
    const current = selectLatest(live.session, ControllerSnapshot) as MachineSnapshot;
    const outcomes = allowedOutcomes(machine, current);
    const outcome = outcomes[step.pick % Math.max(outcomes.length, 1)];
    if (outcome === undefined) {
      answers.push('done');
      continue;
    }
    const next = transition(machine, current, {
      outcome,
      now: live.session.clock(),
      confidence: step.confidence,
      costUsd: step.costUsd,
      tool: { name: 'planning_read_plan', args: {}, result: step.pick },
    });
    if (next.ok) live.session.dispatch(ControllerSnapshot, next.value);
    answers.push(next.ok ? next.value : { code: next.error.code, message: next.error.message });
  }
  return answers;
}

const title = fc.constantFrom('draft', 'write tests', 'ship it', ' padded ', '', 'x'.repeat(161));
const stepId = fc.constantFrom('S001', 'S002', 'S003', 'S004', 'S009');
const newStep = fc.record(
  { title, depends_on: fc.array(stepId, { maxLength: 2 }) },
  { requiredKeys: ['title'] },
);
const toolStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('tool' as const),
    tool: fc.constant('planning_setup_plan'),
    args: fc.record(
      {
        objective: title,
        initial_steps: fc.array(newStep, { maxLength: 3 }),
        explanation: title,
      },
      { requiredKeys: ['objective'] },
    ),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    tool: fc.constant('planning_add_step'),
    args: fc.record({ steps: fc.array(newStep, { minLength: 1, maxLength: 2 }) }),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    tool: fc.constant('planning_mark_step'),
    args: fc.record(
      {
        step_id: stepId,
        status: fc.constantFrom('pending', 'in_progress', 'blocked', 'done', 'finished'),
        note: title,
      },
      { requiredKeys: ['step_id', 'status'] },
    ),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    tool: fc.constant('planning_apply_batch'),
    args: fc.record({
      operations: fc.array(
        fc.oneof(
          fc.record({
            op: fc.constant('add'),
            title,
            depends_on: fc.array(stepId, { maxLength: 1 }),
          }),
          fc.record({ op: fc.constant('note'), step_id: stepId, note: title }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    tool: fc.constantFrom('planning_claim_step', 'planning_release_step'),
    args: fc.record({ step_id: stepId }),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    tool: fc.constantFrom('planning_read_plan', 'planning_clear_plan'),
    args: fc.constant({}),
  }),
);
const outcomeStep: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant('outcome' as const),
  pick: fc.nat({ max: 7 }),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  costUsd: fc.constantFrom(0, 0.01, 0.25),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: toolStep, weight: 3 },
  { arbitrary: outcomeStep, weight: 1 },
);

/** What a re-run must reproduce: the answers, the session as stored, and every bus event. */
async function replayFrom(
  stored: string,
  start: number,
  steps: readonly Step[],
): Promise<{ answers: unknown[]; session: unknown; events: PlankitEvent[] }> {
  let now = start;
  const live = agent(() => now++);
  const events: PlankitEvent[] = [];
  const restored = snapshotFromJSON(stored, live.session);
  if (!restored.ok) throw restored.error;
  // The restore is part of the re-run: a workflow restores, then replays.
  live.session.bus.subscribe('ToolInvoked', (event) => events.push(event));
  live.session.bus.subscribe('SessionCommitted', (event) => events.push(event));
  live.session.bus.subscribe('SessionRolledBack', (event) => events.push(event));
  const rolledBack = live.session.rollback(restored.value);
  if (!rolledBack.ok) throw rolledBack.error;
  const answers = await run(live, steps);
  return { answers, session: snapshotToJSON(live.session.snapshot()), events };
}

/** Makes every ambient source of time, randomness and ids answer differently from the last call. */
function scrambleAmbientSources(seed: number): void {
  let calls = seed * 1_000_003;
  vi.spyOn(Date, 'now').mockImplementation(() => 1.7e12 + seed * 86_400_000 + calls++);
  vi.spyOn(Math, 'random').mockImplementation(() => ((seed * 7919 + calls++) % 1000) / 1000);
  vi.spyOn(performance, 'now').mockImplementation(() => seed * 1e6 + calls++);
  vi.spyOn(crypto, 'randomUUID').mockImplementation(
    () => `${seed}0000000-0000-4000-8000-${String(calls++).padStart(12, '0')}` as never,
  );
  vi.spyOn(crypto, 'getRandomValues').mockImplementation(
    <T extends ArrayBufferView | null>(array: T): T => {
      if (array !== null) new Uint8Array(array.buffer).fill((seed + calls++) % 256);
      return array;
    },
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the replay contract', () => {
  it('a recorded sequence of tool calls and transitions, run twice from one snapshot, gives identical sessions, answers and events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 8 }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.nat({ max: 1_000_000 }),
        async (before, recorded, start) => {
          // The snapshot a workflow engine would have stored before the crash.
          let now = start;
          const first = agent(() => now++);
          first.session.dispatch(ControllerSnapshot, initialSnapshot(machine, { now: now++ }));
          await run(first, before);
          const stored = JSON.stringify(snapshotToJSON(first.session.snapshot()));
          const resumeAt = now;

          // Each run sees different wall-clock time, random numbers and UUIDs; only its inputs
          // (the snapshot, the clock's readings and the recorded steps) are the same.
          scrambleAmbientSources(1);
          const once = await replayFrom(stored, resumeAt, recorded);
          vi.restoreAllMocks();
          scrambleAmbientSources(2);
          const twice = await replayFrom(stored, resumeAt, recorded);
          vi.restoreAllMocks();

          expect(twice.session).toEqual(once.session);
          expect(twice.events).toEqual(once.events);
          expect(twice.answers).toEqual(once.answers);
          // Structural equality could hide a difference toEqual ignores (key order, -0).
          expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
          // The run did something to compare: one event per tool call at least.
          const calls = recorded.filter((entry) => entry.kind === 'tool').length;
          expect(once.events.filter((event) => event.type === 'ToolInvoked')).toHaveLength(calls);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a re-run from the stored snapshot continues exactly as the original run did', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 8 }),
        fc.array(step, { minLength: 1, maxLength: 10 }),
        async (before, after) => {
          // The original run: it stores a snapshot, then goes on (and crashes after the last step).
          let now = 0;
          const original = agent(() => now++);
          original.session.dispatch(ControllerSnapshot, initialSnapshot(machine, { now: now++ }));
          await run(original, before);
          const stored = JSON.stringify(snapshotToJSON(original.session.snapshot()));
          const storedAt = now;
          const answers = await run(original, after);
          const end = snapshotToJSON(original.session.snapshot());

          // The recovery, in a new session: restore (given a time, so it reads no clock), then the
          // same steps on the same clock readings.
          let later = storedAt;
          const recovered = agent(() => later++);
          const restored = snapshotFromJSON(stored, recovered.session);
          if (!restored.ok) throw restored.error;
          const rolledBack = recovered.session.rollback(restored.value, { now: storedAt });
          if (!rolledBack.ok) throw rolledBack.error;
          const again = await run(recovered, after);

          expect(again).toEqual(answers);
          // Revisions count this session's own commits (the restore is one); the state is equal.
          expect(snapshotToJSON(recovered.session.snapshot()).slices).toEqual(end.slices);
        },
      ),
      { numRuns: 50 },
    );
  });
});
