/**
 * A goal survives a restart: a process killed mid-goal (its store never closed, its session
 * never detached) resumes from the store with the same counters, verdict, guard and trace, and
 * the goal goes on to its end in the new process. Its typed commands (set, pause, resume,
 * clear) are logged and replayed by every store like the plan's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  allStepsDone,
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
  type AnyTool,
  createPlanningTools,
  invokeTool,
  Plan,
  type Result,
  Session,
  selectLatest,
} from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { warnWhenSkipped } from '../postgres/testing/postgres-url.ts';
import { attachStore } from './attach-store.ts';
import { FileStore } from './file-store.ts';
import type { StoredEvent } from './session-store.ts';
import { storeKinds } from './testing/store-kinds.ts';

warnWhenSkipped('The PostgresStore goal tests');

const NOW = 1_700_000_000_000;

function unwrap<T>(result: Result<T, Error>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function freshSession(): { session: Session; tools: AnyTool[] } {
  let tick = NOW;
  const session = new Session({ sessionId: 'goal-run', clock: () => tick++ });
  const tools = [...createPlanningTools(session)] as AnyTool[];
  registerGoalReducers(session);
  return { session, tools };
}

/** One scripted model turn: turn 0 sets up the plan, each later one finishes a step. */
async function modelTurn(session: Session, tools: AnyTool[], turn: number, now: number) {
  const tool = (name: string) => tools.find((candidate) => candidate.name === name) as AnyTool;
  if (turn === 0) {
    await invokeTool(
      tool('planning_setup_plan'),
      {
        objective: 'Ship it',
        initial_steps: [{ title: 'Fix' }, { title: 'Test' }, { title: 'Release' }],
      },
      { session, now },
    );
    return;
  }
  const id = `S00${turn}`;
  await invokeTool(tool('planning_mark_step'), { step_id: id, status: 'done' }, { session, now });
}

async function turn(session: Session, tools: AnyTool[], index: number) {
  const now = NOW + 1_000 * (index + 1);
  await modelTurn(session, tools, index, now);
  const plan = selectLatest(session, Plan);
  const goal = selectLatest(session, GoalState) as Goal;
  const verdict = await allStepsDone()({ goal, plan });
  const step = unwrap(
    decideGoal(goal, { plan, usage: { tokens: 700, costUsd: 0.02, elapsedMs: 900 }, verdict, now }),
  );
  unwrap(session.dispatch(GoalState, step.goal, { now }));
  return step.decision;
}

describe('a goal killed mid-run', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-goal-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('resumes from the store with the same counters, and reaches achieved', async () => {
    // The first process: sets the goal, runs two turns, then is killed (no detach, no close).
    const first = freshSession();
    const firstStore = new FileStore({ directory });
    const attachment = unwrap(await attachStore(first.session, firstStore));
    unwrap(
      first.session.dispatch(
        SetGoal,
        { objective: 'Ship it', budget: { tokens: 10_000 } },
        { now: NOW },
      ),
    );
    expect((await turn(first.session, first.tools, 0)).action).toBe('continue');
    expect((await turn(first.session, first.tools, 1)).action).toBe('continue');
    // Paused when the process dies: the new one resumes it by command.
    unwrap(first.session.dispatch(PauseGoal, { reason: 'Deploy window' }, { now: NOW + 2_500 }));
    unwrap(await attachment.flush());
    const before = selectLatest(first.session, GoalState) as Goal;
    expect(before.counters).toEqual({
      turns: 2,
      tokens: 1400,
      costUsd: 0.04,
      elapsedMs: 1800,
      checks: 2,
    });

    // The second process: a new store on the same folder restores the goal as it was.
    const second = freshSession();
    const secondStore = new FileStore({ directory });
    const resumed = unwrap(await attachStore(second.session, secondStore));
    const restored = selectLatest(second.session, GoalState) as Goal;
    expect(restored).toEqual(before);
    expect(restored).toMatchObject({ status: 'paused', reason: 'Deploy window' });
    expect(selectLatest(second.session, Plan)).toEqual(selectLatest(first.session, Plan));
    unwrap(second.session.dispatch(ResumeGoal, {}, { now: NOW + 2_600 }));

    expect((await turn(second.session, second.tools, 2)).action).toBe('continue');
    const last = await turn(second.session, second.tools, 3);
    expect(last).toMatchObject({ action: 'stop', status: 'achieved' });
    const ended = selectLatest(second.session, GoalState) as Goal;
    expect(ended.counters.turns).toBe(4);
    expect(ended.machine.trace.map((entry) => entry.outcome)).toEqual([
      'continue',
      'continue',
      'continue',
      'achieved',
    ]);
    unwrap(await resumed.detach());
    await secondStore.close();
    await firstStore.close();
  });
});

/** What each command leaves, in order: set, a decided turn, pause, resume, clear. */
const STATUSES = ['active', 'active', 'paused', 'active', 'cleared'];

describe.each(storeKinds('plankit-goal-commands-'))('the goal commands through $label', (kind) => {
  it.skipIf(kind.skip)(
    'set, paused, resumed and cleared, each reload gives the same goal, and the log holds the commands',
    async () => {
      const { store, dispose } = await kind.open();
      try {
        const first = freshSession();
        const attachment = unwrap(await attachStore(first.session, store, { snapshotEvery: 2 }));
        const states: Goal[] = [];
        const keep = () => states.push(selectLatest(first.session, GoalState) as Goal);
        unwrap(
          first.session.dispatch(
            SetGoal,
            { objective: 'Ship it', criteria: 'Released', budget: { turns: 10, tokens: null } },
            { now: NOW },
          ),
        );
        keep();
        const step = unwrap(
          decideGoal(states[0] as Goal, { usage: { tokens: 300, costUsd: 0.01 }, now: NOW + 10 }),
        );
        unwrap(first.session.dispatch(GoalState, step.goal, { now: NOW + 10 }));
        keep();
        unwrap(first.session.dispatch(PauseGoal, { reason: 'Review' }, { now: NOW + 20 }));
        keep();
        unwrap(first.session.dispatch(ResumeGoal, {}, { now: NOW + 30 }));
        keep();
        unwrap(first.session.dispatch(ClearGoal, {}, { now: NOW + 40 }));
        keep();
        expect(states.map((goal) => goal.status)).toEqual(STATUSES);
        expect(states[4]?.counters).toMatchObject({ turns: 1, tokens: 300, costUsd: 0.01 });
        unwrap(await attachment.flush());

        // The log holds the typed commands, not goals the host worked out.
        const loaded = unwrap(await store.load('goal-run', { snapshot: false }));
        const logged = loaded.events.flatMap((event: StoredEvent) =>
          ((event.data as { changes?: { dataType: string }[] }).changes ?? []).map(
            (change) => change.dataType,
          ),
        );
        expect(logged).toEqual([
          'plankit.controller.SetGoal',
          'plankit.controller.Goal',
          'plankit.controller.PauseGoal',
          'plankit.controller.ResumeGoal',
          'plankit.controller.ClearGoal',
        ]);

        // A second process (the first never detached) reads the same goal back.
        const second = freshSession();
        const reloaded = unwrap(await attachStore(second.session, store));
        expect(selectLatest(second.session, GoalState)).toEqual(states[4]);
        expect(second.session.snapshot().slices).toEqual(first.session.snapshot().slices);
        // And it goes on from there: a new goal by command, stored in turn.
        unwrap(second.session.dispatch(SetGoal, { objective: 'Next' }, { now: NOW + 50 }));
        unwrap(await reloaded.detach());
        const third = freshSession();
        const last = unwrap(await attachStore(third.session, store));
        expect(selectLatest(third.session, GoalState)).toMatchObject({
          objective: 'Next',
          status: 'active',
          setAt: NOW + 50,
        });
        unwrap(await last.detach());
      } finally {
        await dispose();
      }
    },
  );
});
