/**
 * A goal in a process killed mid-goal (SIGKILL, after its changes were stored) resumes in
 * another process from the store, with the same counters, verdict, guard and trace, by the
 * typed commands, and goes on to `achieved`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Goal, GoalState, goals } from '@plankit/controller/goal';
import {
  createPlanningTools,
  Session,
  type SessionSnapshotJSON,
  selectLatest,
} from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../postgres/postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from '../postgres/testing/postgres-url.ts';
import { attachStore } from './attach-store.ts';
import { FileStore } from './file-store.ts';
import type { SessionStore } from './session-store.ts';
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
  describe('through FileStore', () => {
    let directory: string;
    let store: FileStore;

    beforeEach(async () => {
      directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-goal-resume-'));
      store = new FileStore({ directory });
    });

    afterEach(async () => {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    });

    it('keeps the counters, verdict, guard and trace, and reaches achieved', async () => {
      await checkGoalResume(store, { kind: 'file', directory });
    }, 60_000);
  });

  describe.skipIf(POSTGRES_URL === undefined)(
    `through PostgresStore${SKIPPED_WITHOUT_SERVER}`,
    () => {
      let schema: string;
      let store: PostgresStore;

      beforeEach(() => {
        schema = freshSchema();
        store = new PostgresStore({ connectionString: POSTGRES_URL, schema });
      });

      afterEach(async () => {
        await store.close();
        await dropSchema(schema);
      });

      it('keeps the counters, verdict, guard and trace, and reaches achieved', async () => {
        await checkGoalResume(store, { kind: 'postgres', url: POSTGRES_URL as string, schema });
      }, 60_000);
    },
  );
});
