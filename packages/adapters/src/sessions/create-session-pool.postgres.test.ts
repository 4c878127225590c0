import { fileURLToPath } from 'node:url';
import { invokeTool, registerPlanningReducers, Session, selectAll, ToolCall } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../persistence/postgres/postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from '../persistence/postgres/testing/postgres-url.ts';
import { attachStore } from '../persistence/stores/attach-store.ts';
import { startWorker } from '../persistence/stores/testing/run-worker.ts';
import { createSessionPool } from './create-session-pool.ts';
import { ok, planOf, SETUP, serialPlan } from './testing/pool-helpers.ts';

warnWhenSkipped('Session pool PostgreSQL tests');

const WORKER = fileURLToPath(new URL('./testing/pool-worker.ts', import.meta.url));
const STEP_WORKER = fileURLToPath(new URL('./testing/step-worker.ts', import.meta.url));
const WORKERS = 2;
const COUNT = 40;

describe.skipIf(POSTGRES_URL === undefined)(
  `createSessionPool on PostgresStore${SKIPPED_WITHOUT_SERVER}`,
  () => {
    const schemas: string[] = [];
    afterEach(async () => {
      for (const schema of schemas.splice(0)) await dropSchema(schema);
    });

    /** A fresh schema whose conversation `shared` holds the plan `setup` makes, saved. */
    async function storeWithPlan(setup: Record<string, unknown>) {
      const url = POSTGRES_URL as string;
      const schema = freshSchema();
      schemas.push(schema);
      const store = new PostgresStore({ connectionString: url, schema, poolSize: 2 });
      const pool = createSessionPool({ store });
      ok(await pool.run('shared', (session) => invokeTool(SETUP, setup, { session })));
      ok(await pool.close());
      return { url, schema, store };
    }

    it('two processes on one conversation never lose an acknowledged change', async () => {
      const { url, schema, store } = await storeWithPlan({
        objective: 'shared plan',
        initial_steps: [{ title: 'start' }],
      });

      const workers = Array.from({ length: WORKERS }, (_, i) =>
        startWorker(WORKER, { url, schema, worker: i + 1, count: COUNT }, 120_000),
      );
      await Promise.all(workers.map((worker) => worker.waitFor(/^ready$/)));
      for (const worker of workers) worker.child.stdin?.end('go\n');
      const exits = await Promise.all(workers.map((worker) => worker.exited));
      for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

      const acknowledged: string[] = [];
      for (const worker of workers) {
        expect(worker.lines.at(-1)).toBe('done');
        for (const line of worker.lines) {
          const [kind, title] = line.split(' ');
          if (kind === 'ack') acknowledged.push(title as string);
          // Retries are generous: every call gets through eventually.
          expect(kind).not.toBe('refused');
        }
      }
      expect(acknowledged).toHaveLength(WORKERS * COUNT);

      const session = new Session({ sessionId: 'shared' });
      registerPlanningReducers(session);
      ok(await attachStore(session, store));
      const log = selectAll(session, ToolCall);
      const titles = log
        .slice(1)
        .map((call) => (call.params as { steps: { title: string }[] }).steps[0]?.title);
      // Every acknowledged step is stored exactly once, and nothing else.
      expect([...titles].sort()).toEqual([...acknowledged].sort());
      // Each worker's own steps are in the order it made them.
      for (let worker = 1; worker <= WORKERS; worker++) {
        const mine = titles.filter((title) => title?.startsWith(`w${worker}-`));
        expect(mine).toEqual(Array.from({ length: COUNT }, (_, i) => `w${worker}-${i + 1}`));
      }
      expect(planOf(session)).toEqual(await serialPlan(log));
      expect(planOf(session)?.steps).toHaveLength(1 + WORKERS * COUNT);
      await store.close();
    }, 180_000);

    it('a step retried in another process runs its calls again on the stored plan', async () => {
      // Model order and "a retried call id applies once" live in one process's memory. A step
      // retried elsewhere (a crashed worker's step resumed by another) starts from the plan as
      // stored, which holds every change the first process acknowledged, and applies each call
      // again: calls that set a value converge, an add adds again. docs/sessions-per-conversation.md
      // says so.
      const { url, schema, store } = await storeWithPlan({
        objective: 'retried step',
        initial_steps: [{ title: 'draft' }, { title: 'ship' }],
      });
      const runStep = async () => {
        const worker = startWorker(STEP_WORKER, { url, schema }, 60_000);
        const exit = await worker.exited;
        expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
        return worker.lines;
      };
      expect(await runStep()).toEqual(['ok call_1', 'ok call_2', 'ok call_3', 'done']);
      expect(await runStep()).toEqual(['ok call_1', 'ok call_2', 'ok call_3', 'done']);
      const session = new Session({ sessionId: 'shared' });
      registerPlanningReducers(session);
      ok(await attachStore(session, store));
      expect(planOf(session)?.steps.map((step) => [step.title, step.status])).toEqual([
        ['draft', 'done'],
        ['ship', 'in_progress'],
        ['review', 'pending'],
        ['review', 'pending'],
      ]);
      await store.close();
    }, 120_000);
  },
);
