/**
 * One side of the cross-process resume test (the interactive review workflow, with the
 * controller's phase workflow): `freeze` plans a job, runs its first strategic phase and
 * leaves it waiting in `pending_review`; `approve`, in another process, restores the session
 * from the store, approves the plan into the first tactical phase, and starts the first step.
 * Each prints the session it leaves as JSON on its last line.
 */
import { approvePlan, completeTodo, PhaseJob, startPhaseJob } from '@plankit/controller/workflows';
import {
  createPlanningTools,
  invokeTool,
  replaceLatest,
  Session,
  selectLatest,
  snapshotToJSON,
} from '@plankit/core';
import { attachStore } from '../attach-store.ts';
import type { WorkerStore } from './process-tests.ts';
import { openWorkerStore } from './worker-io.ts';

interface Config {
  readonly store: WorkerStore;
  readonly step: 'freeze' | 'approve';
  readonly sessionId: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

// The todos the agent writes for the first tactical phase: five, so the hand-off validates.
const TODOS_YAML = `phase: "Phase 1: Port"
todos:
  - id: 1
    content: Inventory the endpoints
  - id: 2
    content: Port the read handlers
  - id: 3
    content: Port the write handlers
  - id: 4
    content: Run the contract tests
  - id: 5
    content: Cut over
`;

function check<T>(result: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const store = await openWorkerStore(config.store);
const now = config.step === 'freeze' ? 1_000 : 2_000;
const session = new Session({ sessionId: config.sessionId, clock: () => now });
const { planning_setup_plan: setup, planning_mark_step: mark } = createPlanningTools(session);
session.register(PhaseJob, replaceLatest);
const attachment = check(await attachStore(session, store, { snapshotEvery: 3 }));

if (config.step === 'freeze') {
  if (attachment.resumed) throw new Error('the session should be new');
  const planned = await invokeTool(
    setup,
    {
      objective: 'Migrate the billing service',
      initial_steps: [
        { title: 'Inventory the endpoints' },
        { title: 'Port the handlers' },
        { title: 'Cut over' },
      ],
    },
    { session },
  );
  if (!planned.success) throw planned.error;
  let job = startPhaseJob({ jobId: config.sessionId, now, interactive: true });
  for (const todo of job.todos)
    job = check(completeTodo(job, { id: todo.id, now, todos: TODOS_YAML }));
  check(session.dispatch(PhaseJob, job));
  // Frozen for review: a checkpoint, so the reviewer's process loads one snapshot.
  check(await attachment.checkpoint());
} else {
  if (!attachment.resumed) throw new Error('the frozen session was not found');
  const frozen = selectLatest(session, PhaseJob);
  if (frozen?.machine.state !== 'pending_review') {
    throw new Error(`expected pending_review, got ${frozen?.machine.state}`);
  }
  const approved = check(approvePlan(frozen, { now, reason: 'approved by the reviewer' }));
  check(session.dispatch(PhaseJob, approved));
  const started = await invokeTool(mark, { step_id: 'S001', status: 'in_progress' }, { session });
  if (!started.success) throw started.error;
}
check(await attachment.detach());
await store.close();
process.stdout.write(`${JSON.stringify(snapshotToJSON(session.snapshot()))}\n`);
