import {
  allowedOutcomes,
  ControllerSnapshot,
  createPlanningController,
  initialSnapshot,
  type MachineSnapshot,
  machineSnapshotFromJSON,
  registerControllerReducers,
  transition,
} from '@plankit/controller';
import {
  type Budget,
  BudgetState,
  budgetFromJSON,
  createBudget,
  registerBudgetReducers,
  reserveBudget,
  settleBudget,
} from '@plankit/controller/budget';
import {
  applyGoalCommand,
  ClearGoal,
  decideGoal,
  type Goal,
  GoalState,
  PauseGoal,
  ResumeGoal,
  registerGoalReducers,
  SetGoal,
} from '@plankit/controller/goal';
import {
  approvePlan,
  completeTodo,
  PhaseJob,
  phaseJobFromJSON,
  redoWorkshop,
  requestChanges,
  skipReview,
  startPhaseJob,
  startWorkshop,
  WorkshopState,
  workshopFromJSON,
  workshopRound,
  writeArtifact,
} from '@plankit/controller/workflows';
import {
  type AnyTool,
  createPlanningTools,
  invokeTool,
  type Result,
  replaceLatest,
  Session,
  selectAll,
  snapshotFromJSON,
  snapshotToJSON,
  ToolCall,
} from '@plankit/core';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryString } from '../../../../core/src/testing/binary-string.ts';
import { warnWhenSkipped } from '../postgres/testing/postgres-url.ts';
import { type AttachStoreOptions, attachStore } from './attach-store.ts';
import type { SessionStore } from './session-store.ts';
import type { StoreError } from './store-error.ts';
import { ok } from './testing/store-contract.ts';
import { storeKinds } from './testing/store-kinds.ts';

const planningMachine = createPlanningController();

warnWhenSkipped('The PostgresStore round-trip properties');

const NOW = 1_700_000_000_000;
const RUNS = 25;

// Text a model or a host may send: unicode of every plane, control characters, lone
// surrogates, the limits and one past them, keys JavaScript treats specially.
const text: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'Write the tests',
      '  padded  ',
      '\u0000',
      'a\u0000b',
      'line\nforged line',
      '\r\n',
      '\t',
      '\u001b[31mred',
      '\u2028',
      '\u202e',
      'é',
      '日本語',
      '😀',
      '\ud800',
      'a\udfffb',
      'x'.repeat(160),
      'x'.repeat(161),
      'x'.repeat(240),
      'x'.repeat(512),
      '__proto__',
      'constructor',
      '{"a":1}',
      'S001',
    ),
    weight: 3,
  },
  { arbitrary: binaryString({ maxLength: 24 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
);
// U+0000 and lone surrogates stay in: no store can hold them (PostgreSQL's jsonb cannot), so
// core and the controller refuse them with a typed error, and the properties check that
// whatever was accepted still stores and reads back.
const someText = fc.oneof(fc.constant('ok'), text);
const stepId = fc.oneof(
  {
    arbitrary: fc.constantFrom('S001', 'S002', 'S003', 'S004', 'S005', 'S1000', 's001', 'S01'),
    weight: 4,
  },
  { arbitrary: text, weight: 1 },
);
const newStep = fc.record(
  { title: someText, details: fc.option(someText, { nil: undefined }) },
  { requiredKeys: ['title'] },
);

type PlanningCall = { readonly tool: string; readonly args: unknown };

const planningCall: fc.Arbitrary<PlanningCall> = fc.oneof(
  {
    arbitrary: fc.record({
      tool: fc.constant('planning_setup_plan'),
      args: fc.record(
        { objective: someText, initial_steps: fc.array(newStep, { maxLength: 4 }) },
        { requiredKeys: ['objective'] },
      ),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      tool: fc.constant('planning_add_step'),
      args: fc.record({ steps: fc.array(newStep, { maxLength: 3 }) }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      tool: fc.constant('planning_update_step'),
      args: fc.record(
        { step_id: stepId, title: fc.option(someText), details: fc.option(someText) },
        { requiredKeys: ['step_id'] },
      ),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      tool: fc.constant('planning_mark_step'),
      args: fc.record(
        {
          step_id: stepId,
          status: fc.oneof(
            fc.constantFrom('pending', 'in_progress', 'blocked', 'done'),
            fc.constantFrom('Done', '', 'finished'),
          ),
          note: fc.option(someText),
        },
        { requiredKeys: ['step_id', 'status'] },
      ),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      tool: fc.constantFrom('planning_clear_plan', 'planning_read_plan'),
      args: fc.constant({}),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      tool: fc.constantFrom('planning_setup_plan', 'planning_add_step', 'planning_mark_step'),
      args: fc.anything({ maxDepth: 2 }),
    }),
    weight: 1,
  },
);

// PostgreSQL under the setting that made float8 lose digits.
const STORES = storeKinds('plankit-round-trip-', '-c extra_float_digits=0');

let sessions = 0;
const nextId = (kind: string) => `${kind}-${++sessions}`;

/** A fresh session with the planning tools and every controller data type registered. */
function freshSession(sessionId: string, start = NOW): { session: Session; tools: AnyTool[] } {
  let tick = start;
  const session = new Session({ sessionId, clock: () => tick++ });
  const tools = [...createPlanningTools(session)] as AnyTool[];
  registerControllerReducers(session);
  registerBudgetReducers(session);
  registerGoalReducers(session);
  session.register(PhaseJob, replaceLatest);
  session.register(WorkshopState, replaceLatest);
  return { session, tools };
}

function unwrap<T>(result: Result<T, Error>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

async function attached(session: Session, store: SessionStore, options: AttachStoreOptions = {}) {
  const errors: StoreError[] = [];
  const attachment = unwrap(
    await attachStore(session, store, { ...options, onError: (error) => errors.push(error) }),
  );
  return { attachment, errors };
}

/**
 * The invariant: the session's state reads back through snapshotFromJSON (as JSON text),
 * through the store (its log replayed, then its snapshot), each time equal to what it was.
 */
async function expectReadsBack(
  first: Session,
  store: SessionStore,
  flushed: Result<number, StoreError>,
  errors: readonly StoreError[],
): Promise<void> {
  const id = first.sessionId;
  const state = first.snapshot().slices;
  // Its own fromJSON, from text.
  const text = JSON.stringify(snapshotToJSON(first.snapshot()));
  const read = snapshotFromJSON(text, freshSession(id).session);
  expect(read.ok && read.value.slices, read.ok ? '' : read.error.message).toEqual(state);
  // Everything acknowledged, no snapshot failed on the way.
  expect(ok(flushed)).toBeGreaterThanOrEqual(0);
  expect(errors.map((error) => error.message)).toEqual([]);
  // Replayed from the store (the log after whatever snapshot it holds).
  const second = freshSession(id).session;
  const { attachment } = await attached(second, store);
  expect(second.snapshot().slices).toEqual(state);
  // A snapshot of exactly this state, read back.
  if (first.snapshot().revision > 0) ok(await attachment.checkpoint());
  ok(await attachment.detach());
  const third = freshSession(id).session;
  const { attachment: fromSnapshot } = await attached(third, store);
  expect(fromSnapshot.issues).toEqual([]);
  expect(third.snapshot().slices).toEqual(state);
  ok(await fromSnapshot.detach());
}

// A todos.yaml the agent may write for the next phase: 5 todos, with edge text.
function todosYaml(phase: string, contents: readonly string[]): string {
  const todos = contents.map(
    (content, i) => `  - id: ${i + 1}\n    content: ${JSON.stringify(content)}`,
  );
  return `phase: ${JSON.stringify(phase)}\ntodos:\n${todos.join('\n')}\n`;
}

type ControllerStep =
  | {
      readonly kind: 'reserve';
      readonly id: string;
      readonly usd: number;
      readonly tokens: number;
      readonly turn: string;
      readonly dt: number;
    }
  | {
      readonly kind: 'settle';
      readonly pick: number;
      readonly usd: number;
      readonly tokens: number;
      readonly dt: number;
    }
  | {
      readonly kind: 'transition';
      readonly pick: number;
      readonly args: unknown;
      readonly result: unknown;
      readonly reason: string | null;
      readonly cost: number;
      readonly dt: number;
    }
  | { readonly kind: 'todo'; readonly contents: readonly string[]; readonly dt: number }
  | {
      readonly kind: 'review';
      readonly decision: 'approve' | 'skip' | 'request';
      readonly words: string;
      readonly dt: number;
    }
  | {
      readonly kind: 'round';
      readonly actor: string;
      readonly content: string;
      readonly dt: number;
    }
  | { readonly kind: 'artifact'; readonly content: string; readonly dt: number }
  | { readonly kind: 'redo'; readonly reason: string; readonly dt: number };

const dt = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 5_000 }), weight: 5 },
  { arbitrary: fc.integer({ min: -5_000, max: -1 }), weight: 1 },
);
const json = fc.jsonValue({ maxDepth: 3 });
const controllerStep: fc.Arbitrary<ControllerStep> = fc.oneof(
  fc.record({
    kind: fc.constant('reserve' as const),
    id: someText,
    usd: fc.double({ min: 0, max: 3, noNaN: true }),
    tokens: fc.nat(10_000),
    turn: someText,
    dt,
  }),
  fc.record({
    kind: fc.constant('settle' as const),
    pick: fc.nat(5),
    usd: fc.double({ min: 0, max: 3, noNaN: true }),
    tokens: fc.nat(10_000),
    dt,
  }),
  fc.record({
    kind: fc.constant('transition' as const),
    pick: fc.nat(6),
    args: json,
    result: json,
    reason: fc.option(someText),
    cost: fc.double({ min: 0, max: 0.5, noNaN: true }),
    dt,
  }),
  fc.record({
    kind: fc.constant('todo' as const),
    contents: fc.array(someText, { minLength: 5, maxLength: 6 }),
    dt,
  }),
  fc.record({
    kind: fc.constant('review' as const),
    decision: fc.constantFrom('approve' as const, 'skip' as const, 'request' as const),
    words: someText,
    dt,
  }),
  fc.record({
    kind: fc.constant('round' as const),
    actor: fc.oneof(fc.constantFrom('user', 'planner'), someText),
    content: someText,
    dt,
  }),
  fc.record({ kind: fc.constant('artifact' as const), content: someText, dt }),
  fc.record({ kind: fc.constant('redo' as const), reason: someText, dt }),
);

type GoalStep =
  | { readonly kind: 'set'; readonly objective: string; readonly tokens: number | null }
  | {
      readonly kind: 'decide';
      readonly tokens: number;
      readonly costUsd: number;
      readonly verdict: 'achieved' | 'not_yet' | 'unmet' | 'unknown' | null;
      readonly reason: string;
    }
  | { readonly kind: 'pause'; readonly reason: string | null }
  | { readonly kind: 'resume' | 'clear' };

const goalStep: fc.Arbitrary<GoalStep> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    objective: someText,
    tokens: fc.option(fc.nat(20_000)),
  }),
  {
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      tokens: fc.nat(5_000),
      costUsd: fc.double({ min: 0, max: 0.5, noNaN: true }),
      verdict: fc.option(
        fc.constantFrom('achieved', 'not_yet', 'unmet', 'unknown') as fc.Arbitrary<
          'achieved' | 'not_yet' | 'unmet' | 'unknown'
        >,
      ),
      reason: someText,
    }),
    weight: 4,
  },
  fc.record({ kind: fc.constant('pause' as const), reason: fc.option(someText) }),
  fc.record({ kind: fc.constantFrom('resume' as const, 'clear' as const) }),
);

/** The controller values a host keeps in a session, moved along by the public API. */
interface ControllerValues {
  budget: Budget;
  machine: MachineSnapshot;
  job: PhaseJob;
  workshop: WorkshopState;
}

function applyControllerStep(
  values: ControllerValues,
  step: ControllerStep,
  now: number,
): Partial<ControllerValues> {
  const keep = <T>(result: Result<T, Error>): T | undefined =>
    result.ok ? result.value : undefined;
  const attempt = <T>(make: () => Result<T, Error>): T | undefined => {
    try {
      return keep(make());
    } catch {
      // A refused argument is a programmer error here; the state stays as it was.
      return undefined;
    }
  };
  switch (step.kind) {
    case 'reserve': {
      const budget = attempt(() =>
        reserveBudget(values.budget, {
          id: step.id,
          usd: step.usd,
          tokens: step.tokens,
          turn: step.turn,
          now,
        }),
      );
      return budget === undefined ? {} : { budget };
    }
    case 'settle': {
      const reservation =
        values.budget.reservations[step.pick % Math.max(1, values.budget.reservations.length)];
      const budget = attempt(() =>
        settleBudget(values.budget, {
          id: reservation?.id ?? 'none',
          usd: step.usd,
          tokens: step.tokens,
          now,
        }),
      );
      return budget === undefined ? {} : { budget };
    }
    case 'transition': {
      const outcomes =
        attempt(
          () =>
            ({ ok: true, value: allowedOutcomes(planningMachine, values.machine) }) as Result<
              readonly string[],
              Error
            >,
        ) ?? [];
      const outcome = outcomes[step.pick % Math.max(1, outcomes.length)] ?? 'success';
      const machine = attempt(() =>
        transition(planningMachine, values.machine, {
          outcome: outcome as never,
          now,
          costUsd: step.cost,
          tool: { name: 'search', args: step.args, result: step.result },
          reason: step.reason,
        }),
      );
      return machine === undefined ? {} : { machine };
    }
    case 'todo': {
      const open = values.job.todos.find((todo) => todo.status !== 'completed');
      if (open === undefined) return {};
      const job = attempt(() =>
        completeTodo(values.job, {
          id: open.id,
          now,
          todos: todosYaml('Phase 1: Next', step.contents),
        }),
      );
      return job === undefined ? {} : { job };
    }
    case 'review': {
      const input = { now, reason: step.words };
      const job = attempt(() =>
        step.decision === 'approve'
          ? approvePlan(values.job, input)
          : step.decision === 'skip'
            ? skipReview(values.job, input)
            : requestChanges(values.job, { now, feedback: step.words }),
      );
      return job === undefined ? {} : { job };
    }
    case 'round': {
      const workshop = attempt(() =>
        workshopRound(values.workshop, {
          now,
          entries: [{ actor: step.actor, content: step.content }],
        }),
      );
      return workshop === undefined ? {} : { workshop };
    }
    case 'artifact': {
      const workshop = attempt(() =>
        writeArtifact(values.workshop, { now, name: 'notes.md', content: step.content }),
      );
      return workshop === undefined ? {} : { workshop };
    }
    case 'redo': {
      const workshop = attempt(() => redoWorkshop(values.workshop, { now, reason: step.reason }));
      return workshop === undefined ? {} : { workshop };
    }
    default: {
      const unknown: never = step;
      throw new Error(`unknown step ${String(unknown)}`);
    }
  }
}

/** Each value reads back through its own fromJSON, from JSON text, equal to itself. */
function expectOwnFromJSON(values: ControllerValues): void {
  const again = <T>(name: string, result: Result<T, Error>, value: T) => {
    expect(result.ok ? result.value : result.error.message, name).toEqual(value);
  };
  again('budget', budgetFromJSON(JSON.stringify(values.budget)), values.budget);
  again(
    'machine',
    machineSnapshotFromJSON(planningMachine, JSON.stringify(values.machine)),
    values.machine,
  );
  again('job', phaseJobFromJSON(JSON.stringify(values.job)), values.job);
  again('workshop', workshopFromJSON(JSON.stringify(values.workshop)), values.workshop);
}

for (const kind of STORES) {
  describe.skipIf(kind.skip)(`Round trips through ${kind.label}`, () => {
    let store: SessionStore;
    let dispose: () => Promise<void>;

    beforeAll(async () => {
      ({ store, dispose } = await kind.open());
    });

    afterAll(async () => {
      await dispose?.();
    });

    it('a session whose plan the planning tools built from any calls reads back exactly', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(planningCall, { maxLength: 12 }),
          fc.constantFrom(1, 3, Number.POSITIVE_INFINITY),
          async (calls, snapshotEvery) => {
            const { session, tools } = freshSession(nextId('plan'));
            const { attachment, errors } = await attached(session, store, { snapshotEvery });
            for (const [index, call] of calls.entries()) {
              const tool = tools.find((candidate) => candidate.name === call.tool) as AnyTool;
              // Times with every digit a double has.
              const now = NOW + index + 0.1234567;
              const result = await invokeTool(tool, call.args, { session, now });
              expect(result.message.length).toBeLessThan(2_000);
            }
            await expectReadsBack(session, store, await attachment.detach(), errors);
          },
        ),
        { numRuns: RUNS },
      );
    }, 120_000);

    it('budgets, machine snapshots, phase jobs and workshops read back exactly', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(controllerStep, { maxLength: 14 }),
          someText,
          fc.boolean(),
          async (steps, brief, interactive) => {
            const { session } = freshSession(nextId('controller'));
            const { attachment, errors } = await attached(session, store, { snapshotEvery: 4 });
            let workshop: WorkshopState;
            try {
              workshop = startWorkshop({ now: NOW, brief });
            } catch {
              workshop = startWorkshop({ now: NOW, brief: 'Plan the migration' });
            }
            const values: ControllerValues = {
              budget: createBudget({ now: NOW, caps: { costUsd: 5, turnSoftUsd: 1 } }),
              machine: initialSnapshot(planningMachine, { now: NOW }),
              job: startPhaseJob({ jobId: session.sessionId, now: NOW, interactive }),
              workshop,
            };
            let now = NOW;
            for (const step of steps) {
              now = Math.max(0, now + step.dt);
              Object.assign(values, applyControllerStep(values, step, now));
              expectOwnFromJSON(values);
              unwrap(session.dispatch(BudgetState, values.budget, { now }));
              unwrap(session.dispatch(ControllerSnapshot, values.machine, { now }));
              unwrap(session.dispatch(PhaseJob, values.job, { now }));
              unwrap(session.dispatch(WorkshopState, values.workshop, { now }));
            }
            await expectReadsBack(session, store, await attachment.detach(), errors);
          },
        ),
        { numRuns: RUNS },
      );
    }, 120_000);

    it('goals, decided and set, paused, resumed and cleared by their commands, read back exactly', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(planningCall, { maxLength: 4 }),
          fc.array(goalStep, { maxLength: 12 }),
          async (calls, steps) => {
            const { session, tools } = freshSession(nextId('goal'));
            const { attachment, errors } = await attached(session, store, { snapshotEvery: 3 });
            let now = NOW;
            for (const [index, step] of steps.entries()) {
              now += 1_000;
              // The agent's turn: a planning call, then the goal's decision on the plan.
              const call = calls[index % Math.max(1, calls.length)];
              if (call !== undefined) {
                const tool = tools.find((candidate) => candidate.name === call.tool) as AnyTool;
                await invokeTool(tool, call.args, { session, now });
              }
              const goal = session.snapshot().slices['plankit.controller.Goal']?.at(-1) as
                | Goal
                | undefined;
              if (step.kind === 'set') {
                // The typed command: a store logs it and replays it, as it does the plan's.
                const set = session.dispatch(
                  SetGoal,
                  { objective: step.objective, budget: { tokens: step.tokens } },
                  { now },
                );
                if (!set.ok) {
                  expect(set.error.code).toMatch(/^(value_invalid|reducer_failed)$/);
                  unwrap(session.dispatch(SetGoal, { objective: 'Ship it' }, { now }));
                }
              } else if (step.kind === 'decide') {
                if (goal === undefined) continue;
                const plan = session.snapshot().slices['plankit.Plan']?.at(-1) as never;
                const decided = decideGoal(goal, {
                  plan,
                  usage: { tokens: step.tokens, costUsd: step.costUsd },
                  verdict:
                    step.verdict === null ? null : { verdict: step.verdict, reason: step.reason },
                  now,
                });
                if (decided.ok) unwrap(session.dispatch(GoalState, decided.value.goal, { now }));
                else expect(decided.error.code).toMatch(/^(goal_inactive|input_invalid)$/);
              } else {
                const before = session.snapshot();
                const given =
                  step.kind === 'pause'
                    ? session.dispatch(
                        PauseGoal,
                        step.reason === null ? {} : { reason: step.reason },
                        { now },
                      )
                    : session.dispatch(
                        step.kind === 'resume' ? ResumeGoal : ClearGoal,
                        {},
                        { now },
                      );
                if (!given.ok) {
                  // Refused (no goal, a goal the command does not apply to, bad text): no change.
                  expect(given.error.code).toMatch(/^(value_invalid|reducer_failed)$/);
                  expect(session.snapshot()).toBe(before);
                  // Refused exactly when the pure command is.
                  if (goal !== undefined && given.error.code === 'reducer_failed') {
                    const command =
                      step.kind === 'pause'
                        ? {
                            type: 'pause' as const,
                            now,
                            ...(step.reason === null ? {} : { reason: step.reason }),
                          }
                        : { type: step.kind, now };
                    expect(applyGoalCommand(goal, command).ok).toBe(false);
                  }
                }
              }
            }
            await expectReadsBack(session, store, await attachment.detach(), errors);
          },
        ),
        { numRuns: RUNS },
      );
    }, 120_000);

    it('concurrent tool calls end, after re-attaching, in a serial order of those that succeeded', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(planningCall, { minLength: 2, maxLength: 8 }),
          fc.scheduler(),
          async (calls, scheduler) => {
            const id = nextId('race');
            const { session, tools } = freshSession(id);
            const { attachment, errors } = await attached(session, store, { snapshotEvery: 2 });
            const seed = tools.find((tool) => tool.name === 'planning_setup_plan') as AnyTool;
            await invokeTool(
              seed,
              { objective: 'Race', initial_steps: [{ title: 'a' }, { title: 'b' }] },
              { session, now: NOW },
            );
            const toolOf = (name: string) => tools.find((tool) => tool.name === name) as AnyTool;
            // Each call starts when the scheduler says; its distinct time names it in the log.
            const results = await Promise.all([
              ...calls.map((call, index) =>
                scheduler
                  .schedule(Promise.resolve(index))
                  .then(() =>
                    invokeTool(toolOf(call.tool), call.args, { session, now: NOW + 1 + index }),
                  ),
              ),
              scheduler.schedule(Promise.resolve()).then(() => attachment.flush()),
              scheduler.waitAll().then(() => undefined),
            ]);
            const succeeded = calls
              .map((call, index) => ({ call, index, result: results[index] }))
              .filter(
                (entry) =>
                  entry.result !== undefined && 'success' in entry.result && entry.result.success,
              );
            await expectReadsBack(session, store, await attachment.detach(), errors);
            // The log says which order they committed in: replayed serially, in that order,
            // each succeeds and the state is the same.
            const logged = selectAll(session, ToolCall)
              .slice(1)
              .map((entry) => entry.at - NOW - 1);
            expect([...logged].sort((a, b) => a - b)).toEqual(
              succeeded.map((entry) => entry.index),
            );
            const serial = freshSession(`${id}-serial`);
            await invokeTool(
              toolOf('planning_setup_plan'),
              { objective: 'Race', initial_steps: [{ title: 'a' }, { title: 'b' }] },
              { session: serial.session, now: NOW },
            );
            for (const index of logged) {
              const call = calls[index] as PlanningCall;
              const tool = serial.tools.find(
                (candidate) => candidate.name === call.tool,
              ) as AnyTool;
              const result = await invokeTool(tool, call.args, {
                session: serial.session,
                now: NOW + 1 + index,
              });
              expect(result.success, result.message).toBe(true);
            }
            const restored = freshSession(id).session;
            await attached(restored, store).then(({ attachment: again }) => again.detach());
            expect(restored.snapshot().slices).toEqual(serial.session.snapshot().slices);
          },
        ),
        { numRuns: RUNS },
      );
    }, 120_000);
  });
}
