/**
 * A goal in a process killed mid-goal (SIGKILL, after its changes were stored) resumes in
 * another process from the store, with the same counters, verdict, guard and trace, by the
 * typed commands, and goes on to `achieved`.
 */
import { fileURLToPath } from 'node:url';
import { type Goal, GoalState, goals } from '@plankit/controller/goal';
import {
  createPlanningTools,
  Session,
  type SessionSnapshotJSON,
  selectLatest,
} from '@plankit/core';
import { describe, expect } from 'vitest';
import { warnWhenSkipped } from '../postgres/testing/postgres-url.ts';
import { attachStore } from './attach-store.ts';
import type { SessionStore } from './session-store.ts';
import { describeProcessStores } from './testing/describe-process-stores.ts';
import type { WorkerStore } from './testing/process-tests.ts';
import { startWorker } from './testing/run-worker.ts';

warnWhenSkipped('The PostgresStore goal resume test');

const GOAL_WORKER = fileURLToPath(new URL('./testing/goal-worker.ts', import.meta.url));

async function checkGoalResume(store: SessionStore, target: WorkerStore): Promise<void> {
  const sessionId = 'goal-42';
  const first = startWorker(GOAL_WORKER, { store: target, step: 'run', sessionId });
  const paused = await first.waitFor(/^paused /);
  first.child.kill('SIGKILL');
  const killed = await first.exited;
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  const before = JSON.parse(paused.slice('paused '.length)) as Goal;
  expect(before).toMatchObject({ status: 'paused', reason: 'Deploy window' });
  expect(before.counters).toEqual({
    turns: 2,
    tokens: 1400,
    costUsd: 0.04,
    elapsedMs: 1800,
    checks: 2,
  });

  const second = startWorker(GOAL_WORKER, { store: target, step: 'finish', sessionId });
  const exit = await second.exited;
  expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
  const restored = second.lines.find((line) => line.startsWith('restored ')) ?? '';
  expect(JSON.parse(restored.slice('restored '.length))).toEqual(before);
  const left = JSON.parse(second.lines.at(-1) ?? 'null') as SessionSnapshotJSON;
  const ended = left.slices['plankit.controller.Goal']?.at(-1) as Goal;
  expect(ended).toMatchObject({ status: 'achieved' });
  expect(ended.counters.turns).toBe(4);
  expect(ended.machine.trace.map((entry) => entry.outcome)).toEqual([
    'continue',
    'continue',
    'continue',
    'achieved',
  ]);

  // A third session, in this process, restores exactly what the second left.
  const third = new Session({ sessionId });
  createPlanningTools(third, { extensions: [goals()] });
  const attached = await attachStore(third, store);
  if (!attached.ok) throw attached.error;
  expect(selectLatest(third, GoalState)).toEqual(ended);
  await attached.value.detach();
}

describe('A goal killed mid-goal in one process, resumed in another', () => {
  describeProcessStores(
    'keeps the counters, verdict, guard and trace, and reaches achieved',
    'plankit-goal-resume-',
    checkGoalResume,
  );
});
