/**
 * A goal survives a restart: a process killed mid-goal (its store never closed, its session
 * never detached) resumes from the store with the same counters, verdict, guard and trace, and
 * the goal goes on to its end in the new process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  allStepsDone,
  createGoal,
  decideGoal,
  type Goal,
  GoalState,
  registerGoalReducers,
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
import { attachStore } from './attach-store.ts';
import { FileStore } from './file-store.ts';

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
        GoalState,
        createGoal({ objective: 'Ship it', budget: { tokens: 10_000 }, now: NOW }),
      ),
    );
    expect((await turn(first.session, first.tools, 0)).action).toBe('continue');
    expect((await turn(first.session, first.tools, 1)).action).toBe('continue');
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
    expect(selectLatest(second.session, Plan)).toEqual(selectLatest(first.session, Plan));

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
