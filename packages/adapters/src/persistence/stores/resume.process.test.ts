import { PhaseJob } from '@plankit/controller/workflows';
import { Plan, selectAll, selectLatest, ToolCall } from '@plankit/core';
import { describe, expect } from 'vitest';
import { warnWhenSkipped } from '../postgres/testing/postgres-url.ts';
import type { SessionStore } from './session-store.ts';
import { describeProcessStores } from './testing/describe-process-stores.ts';
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
  describeProcessStores(
    'restores plan, tool log and the review job in each process',
    'plankit-resume-',
    checkResume,
  );
});
