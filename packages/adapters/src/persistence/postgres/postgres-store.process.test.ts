import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOST_IDS } from '../stores/testing/host-ids.ts';
import {
  checkConcurrentAppends,
  checkCrashes,
  checkIdsAcrossProcesses,
} from '../stores/testing/process-tests.ts';
import { PostgresStore } from './postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from './testing/postgres-url.ts';

warnWhenSkipped('PostgresStore process tests');

describe.skipIf(POSTGRES_URL === undefined)(
  `PostgresStore across processes${SKIPPED_WITHOUT_SERVER}`,
  () => {
    let schema: string;
    let store: PostgresStore;
    const url = POSTGRES_URL as string;

    beforeEach(async () => {
      schema = freshSchema();
      store = new PostgresStore({ connectionString: url, schema });
      // Created here, not by the racing workers' first calls (which would also be fine).
      const migrated = await store.migrate();
      if (!migrated.ok) throw migrated.error;
    });

    afterEach(async () => {
      await store.close();
      await dropSchema(schema);
    });

    it('keeps every acknowledged event exactly once when 4 processes append to one session', async () => {
      const { conflicts } = await checkConcurrentAppends(
        store,
        { kind: 'postgres', url, schema },
        4,
        20,
      );
      expect(conflicts).toBeGreaterThan(0);
    }, 60_000);

    it('never loses an acknowledged event when a writer is killed mid-append or mid-snapshot, 8 times', async () => {
      const { version } = await checkCrashes(store, { kind: 'postgres', url, schema }, 8);
      expect(version).toBeGreaterThan(8);
    }, 90_000);

    it('finds every kind of host id again after a restart, from another process', async () => {
      await checkIdsAcrossProcesses(store, { kind: 'postgres', url, schema }, HOST_IDS);
    }, 60_000);
  },
);
