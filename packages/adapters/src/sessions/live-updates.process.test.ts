import { fileURLToPath } from 'node:url';
import { invokeTool, Plan, selectLatest } from '@plankit/core';
import type { PlanView } from '@plankit/core/plan-view';
import { afterEach, describe, expect, it } from 'vitest';
import type { AISDKContext } from '../ai-sdk/ai-sdk-context.ts';
import type { PlanDataChunk } from '../ai-sdk/plan-data-part.ts';
import { withPlanUpdates } from '../ai-sdk/with-plan-updates.ts';
import { PostgresStore } from '../persistence/postgres/postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from '../persistence/postgres/testing/postgres-url.ts';
import { startWorker } from '../persistence/stores/testing/run-worker.ts';
import { createSessionPool } from './create-session-pool.ts';
import { ok, SETUP } from './testing/pool-helpers.ts';

warnWhenSkipped('The live updates across workers test');

type Chat = { readonly chatId: string };

const STEP_WORKER = fileURLToPath(new URL('./testing/step-worker.ts', import.meta.url));

/** A promise with its resolve, for a listener to settle. */
function signal<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe.skipIf(POSTGRES_URL === undefined)(
  `Live updates across workers on PostgreSQL${SKIPPED_WITHOUT_SERVER}`,
  () => {
    const schemas: string[] = [];
    afterEach(async () => {
      for (const schema of schemas.splice(0)) await dropSchema(schema);
    });

    it("a change another process makes reaches this pool's subscriber and a streaming withPlanUpdates", async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const store = new PostgresStore({ connectionString: POSTGRES_URL, schema });
      const pool = createSessionPool({ store });
      ok(
        await pool.run('shared', (session) =>
          invokeTool(
            SETUP,
            { objective: 'Ship', initial_steps: [{ title: 'draft' }] },
            { session },
          ),
        ),
      );
      // The pool's subscriber: resolves once it sees the other process's mark.
      const heard = signal<string>();
      const stop = ok(
        pool.subscribe('shared', (event, session) => {
          const status = selectLatest(session, Plan)?.steps[0]?.status;
          if (status === 'done') heard.resolve(event.type);
        }),
      );
      // A streaming response: its execute stays open until the plan part shows the mark.
      const parts: PlanDataChunk[] = [];
      const streamed = signal<PlanView>();
      const writer = {
        write(part: PlanDataChunk) {
          parts.push(part);
          if (part.data?.steps[0]?.status === 'done') streamed.resolve(part.data);
        },
        merge() {},
      };
      const source = pool.resolver((call: AISDKContext<Chat>) => call.context?.chatId);
      const streaming = withPlanUpdates<typeof writer, Chat>(
        { session: source, context: { chatId: 'shared' } },
        async ({ writer: w }) => {
          w.write({ type: 'start' } as never);
          await streamed.promise;
        },
      )({ writer });

      const worker = startWorker(STEP_WORKER, { url: POSTGRES_URL, schema });
      await worker.waitFor(/^done$/);
      expect(worker.lines).toContain('ok call_1');
      expect(await heard.promise).toBe('SessionRolledBack');
      await streaming;
      const plans = parts.filter((part) => part.type === 'data-plan');
      const statuses = plans.map((part) => part.data?.steps[0]?.status);
      expect(statuses[0]).toBe('pending');
      expect(statuses.at(-1)).toBe('done');
      stop();
      ok(await pool.close());
      await store.close();
    }, 60_000);
  },
);
