import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PhaseJob } from '@plankit/controller/workflows';
import { Plan, selectAll, selectLatest, ToolCall } from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../postgres/postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from '../postgres/testing/postgres-url.ts';
import { FileStore } from './file-store.ts';
import type { SessionStore } from './session-store.ts';
import { runReviewResume, type WorkerStore } from './testing/process-tests.ts';

warnWhenSkipped('The PostgresStore resume test');

async function checkResume(store: SessionStore, target: WorkerStore): Promise<void> {
  const { frozen, approved, restored } = await runReviewResume(store, target);
  // The reviewer's process saw exactly what the planner's process froze...
  const frozenJob = frozen.slices['plankit.controller.PhaseJob']?.[0] as PhaseJob;
  expect(frozenJob.machine).toMatchObject({ state: 'pending_review', status: 'waiting' });
  expect(frozenJob.review.status).toBe('required');
  const frozenPlan = frozen.slices['plankit.Plan']?.[0] as Plan;
  expect(frozenPlan.steps.map((step) => step.status)).toEqual(['pending', 'pending', 'pending']);
  // ...and continued from it: approved into the first tactical phase, first step started.
  const approvedJob = approved.slices['plankit.controller.PhaseJob']?.[0] as PhaseJob;
  expect(approvedJob.machine.state).toBe('tactical');
  expect(approvedJob.review.status).toBe('approved');
  expect(approvedJob.todos.map((todo) => todo.content)).toContain('Port the read handlers');
  // A third process restores the approved state, the job included.
  expect(restored.snapshot().slices).toEqual(approved.slices);
  expect(selectLatest(restored, Plan)?.steps[0]?.status).toBe('in_progress');
  expect(selectLatest(restored, PhaseJob)?.machine.state).toBe('tactical');
  expect(selectAll(restored, ToolCall).map((call) => call.tool)).toEqual([
    'planning_setup_plan',
    'planning_mark_step',
  ]);
}

describe('Resume: a planned job frozen for review in one process, approved in another', () => {
  describe('through FileStore', () => {
    let directory: string;
    let store: FileStore;

    beforeEach(async () => {
      directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-resume-'));
      store = new FileStore({ directory });
    });

    afterEach(async () => {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    });

    it('restores plan, tool log and the review job in each process', async () => {
      await checkResume(store, { kind: 'file', directory });
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

      it('restores plan, tool log and the review job in each process', async () => {
        await checkResume(store, { kind: 'postgres', url: POSTGRES_URL as string, schema });
      }, 60_000);
    },
  );
});
