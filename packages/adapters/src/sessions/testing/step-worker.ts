/**
 * A worker process for the retried-step test: opens a PostgresStore and a session pool, runs
 * one model step (a fixed list of OpenAI tool calls with fixed ids) for conversation `shared`
 * through the OpenAI toolset, prints `ok <id>` or `refused <id> <code>` per call, then `done`.
 * Run twice, it is the same step retried in a second process.
 */
import { createPlanningTools, Session } from '@plankit/core';
import { createOpenAIToolset } from '../../openai/create-openai-toolset.ts';
import { PostgresStore } from '../../persistence/postgres/postgres-store.ts';
import { createSessionPool } from '../create-session-pool.ts';

interface Config {
  readonly url: string;
  readonly schema: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const store = new PostgresStore({
  connectionString: config.url,
  schema: config.schema,
  poolSize: 2,
});
const pool = createSessionPool({ store });
const toolset = createOpenAIToolset(createPlanningTools(new Session()));
const call = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});
const records = await toolset.runChatToolCalls(
  [
    call('call_1', 'planning_mark_step', { step_id: 'S001', status: 'done' }),
    call('call_2', 'planning_add_step', { steps: [{ title: 'review' }] }),
    call('call_3', 'planning_mark_step', { step_id: 'S002', status: 'in_progress' }),
  ],
  { session: pool.resolver((context: { key: string }) => context.key), key: 'shared' },
);
for (const record of records) {
  const code = record.result.success ? '' : ` ${record.result.error.code}`;
  process.stdout.write(`${record.result.success ? 'ok' : 'refused'} ${record.callId}${code}\n`);
}
const closed = await pool.close();
if (!closed.ok) throw closed.error;
await store.close();
process.stdout.write('done\n');
