import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Durability } from '@plankit/adapters';
import { createOpenAIToolset } from '@plankit/adapters/openai';
import { PostgresStore } from '@plankit/adapters/postgres';
import { createSessionPool } from '@plankit/adapters/sessions';
import { FileStore, type SessionStore } from '@plankit/adapters/stores';
import { createPlanningTools, Session } from '@plankit/core';
import type { BenchCase, BenchSuite } from '../../../scripts/bench.ts';

// What `durability: 'sync'` costs a host tool call: the same planning call through the OpenAI
// toolset on a pooled conversation, its result handed back after the store's acknowledgement
// ('sync', plankit's default) against before it ('async', the baseline). FileStore always;
// PostgreSQL with `bash scripts/postgres.sh run -- npm run bench -- durability`.

const POSTGRES_URL = process.env['PLANKIT_PG_URL'] || undefined;
const TOOLS = createPlanningTools(new Session());

const directories: string[] = [];
process.on('exit', () => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** One side: a pool on a fresh store, a plan set up, then one title change per run. */
async function side(store: () => SessionStore, durability: Durability) {
  const pool = createSessionPool({ store: store() });
  const session = pool.resolver((context: { key?: string | undefined }) => context.key);
  const toolset = createOpenAIToolset(TOOLS, { durability });
  let n = 0;
  const call = async (name: string, args: unknown) => {
    const [record] = await toolset.runChatToolCalls(
      [{ id: `c${n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
      { session, key: `bench-${durability}` },
    );
    if (record?.result.success !== true) throw new Error(`${name}: ${record?.message.content}`);
    return record;
  };
  await call('planning_setup_plan', { objective: 'Ship v2', initial_steps: [{ title: 'draft' }] });
  return {
    // A change each run (the title alternates), so each one is written.
    run: () => call('planning_update_step', { step_id: 'S001', title: `draft ${n++ % 2}` }),
  };
}

function fileStore(): FileStore {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'plankit-bench-durability-'));
  directories.push(directory);
  return new FileStore({ directory });
}

const cases: BenchCase[] = [
  {
    name: 'tool call, FileStore: sync vs async',
    what: "planning_update_step through createOpenAIToolset on a pooled FileStore conversation, durability 'sync' vs 'async'",
    plankit: () => side(fileStore, 'sync'),
    baseline: () => side(fileStore, 'async'),
  },
];

if (POSTGRES_URL !== undefined) {
  const schema = `bench_durability_${process.pid}`;
  const postgres = () => new PostgresStore({ connectionString: POSTGRES_URL, schema });
  cases.push({
    name: 'tool call, PostgreSQL: sync vs async',
    what: "planning_update_step through createOpenAIToolset on a pooled PostgresStore conversation, durability 'sync' vs 'async'",
    plankit: () => side(postgres, 'sync'),
    baseline: () => side(postgres, 'async'),
  });
}

export const suite: BenchSuite = { name: 'durability', cases };
