/**
 * One side of the cross-process resume test (seed 002's review, on the controller's wait
 * state): `freeze` plans a job and stops the review machine in `pending_review`; `approve`,
 * in another process, restores the session from the store, approves, and starts the first
 * step. Each prints the session it leaves as JSON on its last line.
 */
import {
  ControllerSnapshot,
  defineMachine,
  initialSnapshot,
  type MachineSnapshot,
  registerControllerReducers,
  transition,
} from '@plankit/controller';
import {
  createPlanningTools,
  invokeTool,
  Session,
  selectLatest,
  snapshotToJSON,
} from '@plankit/core';
import { attachStore } from '../attach-store.ts';
import type { SessionStore } from '../session-store.ts';
import type { WorkerStore } from './process-tests.ts';

interface Config {
  readonly store: WorkerStore;
  readonly step: 'freeze' | 'approve';
  readonly sessionId: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

/** The review machine of defineMachine's documentation: draft, wait for review, approved. */
const review = defineMachine({
  id: 'review',
  initial: 'draft',
  onCap: { default: 'aborted' },
  states: {
    draft: { on: { done: 'pending_review' } },
    pending_review: { kind: 'wait', on: { approve: 'approved', request_changes: 'draft' } },
    approved: { kind: 'final' },
    aborted: { kind: 'final' },
  },
});

async function openStore(): Promise<SessionStore> {
  if (config.store.kind === 'file') {
    const { FileStore } = await import('../file-store.ts');
    return new FileStore({ directory: config.store.directory });
  }
  const { PostgresStore } = await import('../../postgres/postgres-store.ts');
  return new PostgresStore({ connectionString: config.store.url, schema: config.store.schema });
}

function check<T>(result: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const store = await openStore();
const now = config.step === 'freeze' ? 1_000 : 2_000;
const session = new Session({ sessionId: config.sessionId, clock: () => now });
const [setup, , , mark] = createPlanningTools(session);
registerControllerReducers(session);
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
  const drafted = check(
    transition(review, initialSnapshot(review, { now: 0 }), { outcome: 'done', now }),
  );
  check(session.dispatch(ControllerSnapshot, drafted));
  // Frozen for review: a checkpoint, so the reviewer's process loads one snapshot.
  check(await attachment.checkpoint());
} else {
  if (!attachment.resumed) throw new Error('the frozen session was not found');
  const frozen = selectLatest(session, ControllerSnapshot) as MachineSnapshot | undefined;
  if (frozen?.state !== 'pending_review')
    throw new Error(`expected pending_review, got ${frozen?.state}`);
  const approved = check(
    transition(review, frozen, { outcome: 'approve', now, reason: 'approved by the reviewer' }),
  );
  check(session.dispatch(ControllerSnapshot, approved));
  const started = await invokeTool(mark, { step_id: 'S001', status: 'in_progress' }, { session });
  if (!started.success) throw started.error;
}
check(await attachment.detach());
await store.close();
process.stdout.write(`${JSON.stringify(snapshotToJSON(session.snapshot()))}\n`);
