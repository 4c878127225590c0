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

interface Config {
  readonly store:
    | { readonly kind: 'file'; readonly directory: string }
    | { readonly kind: 'postgres'; readonly url: string; readonly schema: string };
  readonly sessionId: string;
  readonly agent: string;
  readonly steps: readonly string[];
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

async function openStore(): Promise<SessionStore> {
  if (config.store.kind === 'file') {
    const { FileStore } = await import('../file-store.ts');
    return new FileStore({ directory: config.store.directory, lockTimeoutMs: 30_000 });
  }
  const { PostgresStore } = await import('../../postgres/postgres-store.ts');
  return new PostgresStore({
    connectionString: config.store.url,
    schema: config.store.schema,
    poolSize: 2,
  });
}

function print(line: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(`${line}\n`, () => resolve()));
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

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

const store = await openStore();
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
