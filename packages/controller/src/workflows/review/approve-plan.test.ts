import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { completeTodo } from '../phases/complete-todo.ts';
import { phaseJobFromJSON } from '../phases/phase-job-from-json.ts';
import { startPhaseJob } from '../phases/start-phase-job.ts';
import { planned, waitingJob } from '../testing/review-fixtures.ts';
import { refusal, unwrap } from '../testing/unwrap.ts';
import { approvePlan } from './approve-plan.ts';

const T0 = Date.UTC(2026, 0, 15, 9);
const DAY = 24 * 3600 * 1000;
const run = promisify(execFile);

describe('approvePlan', () => {
  it('an interactive job waits for review after its first strategic phase, before any tactical work', () => {
    const job = waitingJob(T0);
    expect(job.machine).toMatchObject({ state: 'pending_review', status: 'waiting' });
    expect(job.phase).toBe('strategic');
    expect(job.todos.every((todo) => todo.status === 'completed')).toBe(true);
    expect(job.handoff?.todos).toHaveLength(5);
    expect(job.signals).toEqual([
      {
        type: 'todos_consumed',
        path: 'todos.yaml',
        action: 'archive',
        archivePath: 'archive/todos_phase_1.yaml',
      },
      { type: 'review_pending', cycle: 0 },
    ]);
  });

  it('resumes into the first tactical phase with the todos validated at the hand-off', () => {
    const approved = unwrap(
      approvePlan(waitingJob(T0), { now: T0 + DAY, reason: 'approved by Dana' }),
    );
    expect(approved).toMatchObject({
      phase: 'tactical',
      phaseNumber: 2,
      title: 'Phase 1: Extract',
      handoff: null,
      review: { status: 'approved', cycles: 0 },
    });
    expect(approved.todos.map((todo) => todo.content)).toEqual([
      'Task 1',
      'Task 2',
      'Task 3',
      'Task 4',
      'Task 5',
    ]);
    expect(approved.signals).toEqual([
      { type: 'history_reset' },
      { type: 'phase_started', phase: 'tactical', phaseNumber: 2, kind: 'tactical' },
    ]);
    expect(approved.machine.trace.at(-1)).toMatchObject({
      outcome: 'review_approved',
      reason: 'approved by Dana',
    });
    // Waiting is not work: leaving the wait state starts a new run of the controller.
    expect(approved.machine.counters.run).toBe(2);
  });

  it('later hand-offs do not wait once the plan is approved', () => {
    let job = unwrap(approvePlan(waitingJob(T0), { now: T0 }));
    for (const todo of job.todos) job = unwrap(completeTodo(job, { id: todo.id, now: T0 }));
    expect(job).toMatchObject({ phase: 'strategic', phaseNumber: 3 });
    expect(planned(job, T0).phase).toBe('tactical');
  });

  it('gives the same result after a JSON round trip into a fresh object graph', () => {
    const frozen = waitingJob(T0);
    const inProcess = unwrap(approvePlan(frozen, { now: T0 + DAY }));
    const restored = unwrap(phaseJobFromJSON(JSON.stringify(frozen)));
    expect(restored).not.toBe(frozen);
    expect(restored.machine).not.toBe(frozen.machine);
    const resumed = unwrap(approvePlan(restored, { now: T0 + DAY }));
    expect(resumed).toEqual(inProcess);
    expect(JSON.stringify(resumed)).toBe(JSON.stringify(inProcess));
  });

  it('gives the same result when another process approves', async () => {
    const frozen = waitingJob(T0);
    const inProcess = unwrap(approvePlan(frozen, { now: T0 + DAY }));
    const script = `
      import { approvePlan, phaseJobFromJSON } from '@plankit/controller/workflows';
      const read = phaseJobFromJSON(process.argv[1]);
      if (!read.ok) throw read.error;
      const next = approvePlan(read.value, { now: Number(process.argv[2]) });
      if (!next.ok) throw next.error;
      process.stdout.write(JSON.stringify(next.value));`;
    const { stdout } = await run(
      process.execPath,
      [
        '--conditions=@plankit/source',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
        JSON.stringify(frozen),
        String(T0 + DAY),
      ],
      { cwd: fileURLToPath(new URL('../../../../..', import.meta.url)), timeout: 60_000 },
    );
    expect(stdout).toBe(JSON.stringify(inProcess));
  }, 60_000);

  it('refuses when the job is not waiting for review', () => {
    const running = startPhaseJob({ jobId: 'job-7', now: T0, interactive: true });
    expect(refusal(approvePlan(running, { now: T0 }))).toMatchObject({
      code: 'review_not_pending',
      message: 'approvePlan: job job-7 is not waiting for review; it is in strategic phase 1.',
    });
    const waiting = waitingJob(T0);
    expect(refusal(approvePlan(waiting, { now: T0 - 1 })).field).toBe('input.now');
    expect(refusal(approvePlan(waiting, { now: T0, reason: 'x'.repeat(2001) })).field).toBe(
      'input.reason',
    );
    expect(refusal(approvePlan(waiting, { now: T0, by: 'me' } as never)).field).toBe('input.by');
  });
});
