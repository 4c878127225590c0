/**
 * A worker process for the shared-plan claim race: one agent of a plan shared through a
 * FileStore or PostgresStore. Waits for "go" on stdin, then claims each step in turn with
 * optimistic concurrency: load the plan into a fresh session, claim, flush; when the append
 * conflicts (another agent wrote first), start again from the stored state. Prints
 * `won <step>` or `lost <step> <message>` per step, then `done <conflicts>`.
 */
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { dependencies, history, owners, PLAN_MODEL_COMMANDS } from '@plankit/core/plan-model';
import { attachStore } from '../attach-store.ts';
import type { SessionStore } from '../session-store.ts';
import type { WorkerStore } from './process-tests.ts';
import { fail, openWorkerStore, print } from './worker-io.ts';

interface Config {
  readonly store: WorkerStore;
  readonly sessionId: string;
  readonly agent: string;
  readonly steps: readonly string[];
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

/** One attempt: `won`, `lost <message>`, or `conflict` when another agent appended first. */
async function attempt(store: SessionStore, stepId: string): Promise<string> {
  const session = new Session({ sessionId: config.sessionId });
  const tools = createPlanningTools(session, {
    extensions: [dependencies(), owners({ agent: config.agent }), history()],
  });
  const attached = await attachStore(session, store, {
    dataTypes: PLAN_MODEL_COMMANDS,
    snapshotEvery: Number.POSITIVE_INFINITY,
  });
  if (!attached.ok) fail(`attach failed: ${attached.error.code}: ${attached.error.message}`);
  const claim = tools.planning_claim_step;
  const result = await invokeTool(
    claim,
    { step_id: stepId, explanation: `${config.agent} takes it` },
    { session },
  );
  const flushed = await attached.value.detach();
  if (!result.success) return `lost ${result.message}`;
  if (flushed.ok) return 'won';
  if (flushed.error.code === 'conflict') return 'conflict';
  return fail(`append failed: ${flushed.error.code}: ${flushed.error.message}`);
}

const store = await openWorkerStore(config.store, { lockTimeoutMs: 30_000, poolSize: 2 });
await print('ready');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
let conflicts = 0;
for (const stepId of config.steps) {
  for (;;) {
    const outcome = await attempt(store, stepId);
    if (outcome === 'conflict') {
      conflicts++;
      continue;
    }
    await print(`${outcome.split(' ')[0]} ${stepId}${outcome === 'won' ? '' : outcome.slice(4)}`);
    break;
  }
}
await print(`done ${conflicts}`);
await store.close();
