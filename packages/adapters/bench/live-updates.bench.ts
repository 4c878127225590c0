import { PostgresStore } from '@plankit/adapters/postgres';
import { createSessionPool, type SessionPool } from '@plankit/adapters/sessions';
import { createPlanningTools, invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import type { BenchCase, BenchSuite } from '../../../scripts/bench.ts';

// How long a change one worker makes takes to reach another worker's subscriber through
// PostgreSQL's LISTEN/NOTIFY (the subscriber's pool reloads the conversation, then tells it),
// against the change alone. Two pools on two stores (two connection pools) in one process,
// which is what two processes get: `bash scripts/postgres.sh run -- npm run bench -- live-updates`.

const POSTGRES_URL = process.env['PLANKIT_PG_URL'] || undefined;
const { planning_setup_plan: SETUP, planning_update_step: UPDATE } = createPlanningTools(
  new Session(),
);

function expectOk<T>(result: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const cases: BenchCase[] = [];

if (POSTGRES_URL !== undefined) {
  const schema = `bench_live_${process.pid}`;
  const open = () =>
    createSessionPool({ store: new PostgresStore({ connectionString: POSTGRES_URL, schema }) });

  /** A writer pool changing conversation `id`, and (with `watched`) a reader pool's subscriber. */
  async function side(id: string, watched: boolean) {
    const writer: SessionPool = open();
    expectOk(
      await writer.run(id, (session) =>
        invokeTool(
          SETUP,
          { objective: 'Ship', initial_steps: [{ title: 'draft 0' }] },
          { session },
        ),
      ),
    );
    let waiting: { title: string; done: () => void } | undefined;
    if (watched) {
      const reader = open();
      expectOk(
        reader.subscribe(id, (_event, session) => {
          const title = selectLatest(session, Plan)?.steps[0]?.title;
          if (waiting !== undefined && title === waiting.title) waiting.done();
        }),
      );
      // Load the reader's copy once, as a page streaming the plan would have.
      expectOk(await reader.get(id));
    }
    let n = 0;
    return {
      run: async () => {
        const title = `draft ${++n}`;
        const heard = watched
          ? new Promise<void>((done) => {
              waiting = { title, done };
            })
          : undefined;
        const changed = expectOk(
          await writer.run(id, (session) =>
            invokeTool(UPDATE, { step_id: 'S001', title }, { session }),
          ),
        );
        await heard;
        return changed;
      },
    };
  }

  cases.push({
    name: 'change heard by another worker (PostgreSQL)',
    what: "pool.run updating a step in one pool, until another pool's subscriber has the new title (LISTEN/NOTIFY, reload), vs the pool.run alone",
    plankit: () => side('watched', true),
    baseline: () => side('alone', false),
  });
}

export const suite: BenchSuite = { name: 'live-updates', cases };
