import { afterEach, describe, expect, it } from 'vitest';
import type { StoreCommit } from '../stores/session-store.ts';
import { PostgresStore } from './postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from './testing/postgres-url.ts';

warnWhenSkipped('The PostgresStore commit notice tests');

const EVENT = { type: 'plankit.session.committed', at: 1, data: { changes: [] } };

/** Resolves with the commits heard once `count` have arrived. */
function hear(count: number): {
  heard: StoreCommit[];
  listener: (c: StoreCommit) => void;
  all: Promise<StoreCommit[]>;
} {
  const heard: StoreCommit[] = [];
  let done: (value: StoreCommit[]) => void = () => {};
  const all = new Promise<StoreCommit[]>((resolve) => {
    done = resolve;
  });
  return {
    heard,
    listener: (commit) => {
      heard.push(commit);
      if (heard.length === count) done(heard);
    },
    all,
  };
}

describe.skipIf(POSTGRES_URL === undefined)(
  `PostgresStore commit notices (LISTEN/NOTIFY)${SKIPPED_WITHOUT_SERVER}`,
  () => {
    const stores: PostgresStore[] = [];
    const schemas: string[] = [];
    const open = (schema: string) => {
      const store = new PostgresStore({ connectionString: POSTGRES_URL, schema });
      stores.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      for (const schema of schemas.splice(0)) await dropSchema(schema);
    });

    it("tells a watcher on another connection each commit's session and version, never its data", async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const writer = open(schema);
      const watcher = open(schema);
      const { listener, all } = hear(3);
      const watching = await watcher.watch(listener);
      expect(watching.ok).toBe(true);
      expect((await writer.append('job-1', 0, [EVENT])).ok).toBe(true);
      expect((await writer.append('job-1', 1, [EVENT, EVENT])).ok).toBe(true);
      expect((await writer.append('job-2', 0, [EVENT])).ok).toBe(true);
      expect(await all).toEqual([
        { sessionId: 'job-1', version: 1 },
        { sessionId: 'job-1', version: 3 },
        { sessionId: 'job-2', version: 1 },
      ]);
    });

    it('hears nothing from another schema, nor after the watch stopped', async () => {
      const [mine, theirs] = [freshSchema(), freshSchema()];
      schemas.push(mine, theirs);
      const watcher = open(mine);
      const { heard, listener, all } = hear(1);
      const watching = await watcher.watch(listener);
      if (!watching.ok) throw watching.error;
      expect((await open(theirs).append('job-1', 0, [EVENT])).ok).toBe(true);
      expect((await open(mine).append('job-9', 0, [EVENT])).ok).toBe(true);
      expect(await all).toEqual([{ sessionId: 'job-9', version: 1 }]);
      await watching.value();
      // A commit after the stop, then one the watcher's own store makes and hears nothing of:
      // a second watch is the witness that both notices went out.
      const witness = hear(2);
      const second = await watcher.watch(witness.listener);
      if (!second.ok) throw second.error;
      expect((await open(mine).append('job-9', 1, [EVENT])).ok).toBe(true);
      expect((await open(mine).append('job-9', 2, [EVENT])).ok).toBe(true);
      await witness.all;
      expect(heard).toEqual([{ sessionId: 'job-9', version: 1 }]);
    });

    it('is refused once the store is closed, and close ends every watch', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const store = open(schema);
      const watching = await store.watch(() => {});
      expect(watching.ok).toBe(true);
      await store.close();
      const late = await store.watch(() => {});
      expect(late.ok ? 'ok' : late.error.code).toBe('closed');
    });
  },
);
