/**
 * A worker process for the two-process test: opens a PostgresStore and a session pool of one,
 * waits for "go" on stdin, then adds `count` steps to conversation `shared`, alternating with
 * a private conversation so the shared one is evicted and reloaded between calls. Prints
 * `ack <title>` for each acknowledged step, `refused <title> <code>` for each refusal, then
 * `done`.
 */
import { invokeTool } from '@plankit/core';
import { PostgresStore } from '../../persistence/postgres/postgres-store.ts';
import { createSessionPool } from '../create-session-pool.ts';
import { ADD, SETUP } from './pool-helpers.ts';

interface Config {
  readonly url: string;
  readonly schema: string;
  readonly worker: number;
  readonly count: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

function print(line: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(`${line}\n`, () => resolve()));
}

const store = new PostgresStore({
  connectionString: config.url,
  schema: config.schema,
  poolSize: 2,
});
const pool = createSessionPool({ store, max: 1, retries: 1_000 });
await print('ready');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const own = `worker-${config.worker}`;
const setup = await pool.run(own, (session) =>
  invokeTool(SETUP, { objective: own, initial_steps: [{ title: 'start' }] }, { session }),
);
if (!setup.ok) throw setup.error;
for (let n = 1; n <= config.count; n++) {
  const title = `w${config.worker}-${n}`;
  const outcome = await pool.run('shared', (session) =>
    invokeTool(ADD, { steps: [{ title }] }, { session }),
  );
  if (outcome.ok && outcome.value.success) await print(`ack ${title}`);
  else await print(`refused ${title} ${outcome.ok ? outcome.value.message : outcome.error.code}`);
  // Evicts the shared conversation every other call: it is reloaded from the store.
  if (n % 2 === 0) await pool.get(own);
}
const closed = await pool.close();
if (!closed.ok) throw closed.error;
await store.close();
await print('done');
