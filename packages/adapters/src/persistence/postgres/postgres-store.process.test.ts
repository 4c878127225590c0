import { describe, expect, it } from 'vitest';
import { HOST_IDS } from '../stores/testing/host-ids.ts';
import {
  checkConcurrentAppends,
  checkCrashes,
  checkIdsAcrossProcesses,
} from '../stores/testing/process-tests.ts';
import { freshPostgresStoreEach } from './testing/fresh-postgres-store.ts';
import { POSTGRES_URL, SKIPPED_WITHOUT_SERVER, warnWhenSkipped } from './testing/postgres-url.ts';

warnWhenSkipped('PostgresStore process tests');

describe.skipIf(POSTGRES_URL === undefined)(
  `PostgresStore across processes${SKIPPED_WITHOUT_SERVER}`,
  () => {
    const fresh = freshPostgresStoreEach();

    it('keeps every acknowledged event exactly once when 4 processes append to one session', async () => {
      const { conflicts } = await checkConcurrentAppends(
        fresh.store,
        { kind: 'postgres', url: fresh.url, schema: fresh.schema },
        4,
        20,
      );
      expect(conflicts).toBeGreaterThan(0);
    }, 60_000);

    it('never loses an acknowledged event when a writer is killed mid-append or mid-snapshot, 8 times', async () => {
      const { version } = await checkCrashes(
        fresh.store,
        { kind: 'postgres', url: fresh.url, schema: fresh.schema },
        8,
      );
      expect(version).toBeGreaterThan(8);
    }, 90_000);

    it('finds every kind of host id again after a restart, from another process', async () => {
      await checkIdsAcrossProcesses(
        fresh.store,
        { kind: 'postgres', url: fresh.url, schema: fresh.schema },
        HOST_IDS,
      );
    }, 60_000);
  },
);
