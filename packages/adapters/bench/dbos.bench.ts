import { randomBytes } from 'node:crypto';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { invokeToolInWorkflow } from '@plankit/adapters/dbos';
import { PostgresStore } from '@plankit/adapters/postgres';
import { createSessionPool } from '@plankit/adapters/sessions';
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import pg from 'pg';
import type { BenchSuite } from '../../../scripts/bench.ts';

// A planning agent's tool calls as a DBOS workflow, against the same calls through a session
// pool over PostgresStore, on one real server:
// `bash scripts/postgres.sh run -- npm run bench -- dbos`.

const POSTGRES_URL = process.env['PLANKIT_PG_URL'] || undefined;
/** Tool calls per timed run, so the workflow's own start and end weigh as in a short turn. */
const CALLS = 10;

const SETUP = { objective: 'ship v2', initial_steps: [{ title: 'build' }] };
const addStep = (n: number) => ({ steps: [{ title: `step ${n}` }] });

/** The same ten calls on one session: setup, then nine added steps. */
async function tenCalls(
  call: (tool: 'planning_setup_plan' | 'planning_add_step', args: object) => Promise<unknown>,
): Promise<void> {
  await call('planning_setup_plan', SETUP);
  for (let n = 1; n < CALLS; n++) await call('planning_add_step', addStep(n));
}

/** The tools the pool's sessions are called with; a tool reads the session it is given. */
const TOOLS = createPlanningTools(new Session());

function expectSuccess(result: { success: boolean; message: string }): void {
  if (!result.success) throw new Error(result.message);
}

function dbosSuite(url: string): BenchSuite {
  const suffix = randomBytes(4).toString('hex');
  const dbosSchema = `plankit_bench_dbos_${suffix}`;
  const storeSchema = `plankit_bench_store_${suffix}`;
  const pool = new pg.Pool({ connectionString: url, max: 4, allowExitOnIdle: true });
  pool.on('error', () => {});

  const agent = DBOS.registerWorkflow(
    async (): Promise<number> => {
      const session = new Session({ sessionId: DBOS.workflowID ?? 'local' });
      const tools = createPlanningTools(session);
      await tenCalls(async (tool, args) =>
        expectSuccess(await invokeToolInWorkflow(tools[tool], args, { session })),
      );
      return session.snapshot().revision;
    },
    { name: 'benchAgent' },
  );
  let launched: Promise<void> | undefined;
  const launch = () => {
    launched ??= (async () => {
      DBOS.setConfig({
        name: 'plankit-bench',
        systemDatabaseUrl: url,
        systemDatabaseSchemaName: dbosSchema,
        logLevel: 'error',
      });
      await DBOS.launch();
    })();
    return launched;
  };
  let cleaned = false;
  process.on('beforeExit', () => {
    if (cleaned) return;
    cleaned = true;
    void (async () => {
      if (launched !== undefined) await DBOS.shutdown();
      await pool.query(`DROP SCHEMA IF EXISTS "${dbosSchema}" CASCADE`);
      await pool.query(`DROP SCHEMA IF EXISTS "${storeSchema}" CASCADE`);
      await pool.end();
    })().catch(() => {});
  });

  return {
    name: '@plankit/adapters DBOS workflows',
    cases: [
      {
        name: `${CALLS} planning tool calls as a DBOS workflow`,
        what: `a new DBOS workflow making ${CALLS} planning tool calls with invokeToolInWorkflow (each records its moment as a step and publishes the plan as an event and on a stream) vs pool.run on a new conversation making the same calls, saved by PostgresStore on the same server: the ratio is the DBOS wrapper's cost per tool call`,
        plankit: async () => {
          await launch();
          let n = 0;
          return {
            run: async () => {
              const handle = await DBOS.startWorkflow(agent, {
                workflowID: `bench-${suffix}-${n++}`,
              })();
              return handle.getResult();
            },
          };
        },
        baseline: async () => {
          const store = new PostgresStore({ pool, schema: storeSchema });
          const migrated = await store.migrate();
          if (!migrated.ok) throw migrated.error;
          const sessions = createSessionPool({ store });
          let n = 0;
          return {
            run: async () => {
              const done = await sessions.run(`bench-${suffix}-${n++}`, (session) =>
                tenCalls(async (tool, args) =>
                  expectSuccess(await invokeTool(TOOLS[tool], args, { session })),
                ),
              );
              if (!done.ok) throw done.error;
              return done.value;
            },
          };
        },
      },
    ],
  };
}

if (POSTGRES_URL === undefined) {
  process.stderr.write(
    'dbos.bench.ts: SKIPPED: PLANKIT_PG_URL is not set, so the DBOS rows are left out (bash scripts/postgres.sh run -- npm run bench -- dbos).\n',
  );
}

/** A planning agent's tool calls in a DBOS workflow, next to a session pool on PostgresStore. */
export const suite: BenchSuite =
  POSTGRES_URL === undefined
    ? { name: '@plankit/adapters DBOS workflows', cases: [] }
    : dbosSuite(POSTGRES_URL);
