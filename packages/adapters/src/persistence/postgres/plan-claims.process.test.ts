import { describe, expect, it } from 'vitest';
import { checkClaimRace } from '../stores/testing/claim-race.ts';
import { freshPostgresStoreEach } from './testing/fresh-postgres-store.ts';
import { POSTGRES_URL, SKIPPED_WITHOUT_SERVER, warnWhenSkipped } from './testing/postgres-url.ts';

warnWhenSkipped('PostgresStore plan-claim process tests');

describe.skipIf(POSTGRES_URL === undefined)(
  `a plan shared through PostgresStore by agents in separate processes${SKIPPED_WITHOUT_SERVER}`,
  () => {
    const fresh = freshPostgresStoreEach();

    it('two agents racing to claim the same 12 steps: exactly one wins each, the other is told who holds it', async () => {
      const { wins } = await checkClaimRace(
        fresh.store,
        { kind: 'postgres', url: fresh.url, schema: fresh.schema },
        12,
      );
      expect((wins['agent-a'] ?? 0) + (wins['agent-b'] ?? 0)).toBe(12);
    }, 120_000);
  },
);
