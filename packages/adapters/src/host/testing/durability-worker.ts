/**
 * A worker for `durability.process.test.ts`: runs tool calls through a host adapter on a
 * pooled conversation stored in a FileStore, back to back, and prints `ack <n>` the moment the
 * adapter hands the n-th call's result back, until the parent SIGKILLs it.
 * Config: `{ directory, durability }`. Lines are written synchronously (stdout is a pipe), so
 * a line printed before the kill reaches the parent.
 */
import { writeSync } from 'node:fs';
import { createPlanningTools, Session } from '@plankit/core';
import { createOpenAIToolset } from '../../openai/create-openai-toolset.ts';
import { FileStore } from '../../persistence/stores/file-store.ts';
import { createSessionPool } from '../../sessions/create-session-pool.ts';
import type { Durability } from '../host-tool-options.ts';

const { directory, durability } = JSON.parse(process.argv[2] ?? '{}') as {
  directory: string;
  durability: Durability;
};
const pool = createSessionPool({ store: new FileStore({ directory }) });
const toolset = createOpenAIToolset([...createPlanningTools(new Session())], { durability });
const session = pool.resolver((context: { key?: string | undefined }) => context.key);

async function call(name: string, args: unknown): Promise<void> {
  const [record] = await toolset.runChatToolCalls(
    [{ id: 'c', type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    { session, key: 'conversation' },
  );
  if (record?.result.success !== true) throw new Error(`${name} failed: ${JSON.stringify(record)}`);
}

await call('planning_setup_plan', { objective: 'Count', initial_steps: [{ title: 'step 0' }] });
writeSync(1, 'ack 0\n');
// Far more calls than the parent waits for; then it idles until the kill.
for (let n = 1; n <= 400; n++) {
  await call('planning_add_step', { steps: [{ title: `step ${n}` }] });
  writeSync(1, `ack ${n}\n`);
}
setInterval(() => undefined, 1_000);
