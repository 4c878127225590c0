import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkClaimRace } from '../stores/testing/claim-race.ts';
import { PostgresStore } from './postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from './testing/postgres-url.ts';

warnWhenSkipped('PostgresStore plan-claim process tests');

describe.skipIf(POSTGRES_URL === undefined)(
  `a plan shared through PostgresStore by agents in separate processes${SKIPPED_WITHOUT_SERVER}`,
  () => {
    let schema: string;
    let store: PostgresStore;
    const url = POSTGRES_URL as string;

    beforeEach(async () => {
      schema = freshSchema();
      store = new PostgresStore({ connectionString: url, schema });
      const migrated = await store.migrate();
      if (!migrated.ok) throw migrated.error;
    });

    afterEach(async () => {
      await store.close();
      await dropSchema(schema);
    });

    it('two agents racing to claim the same 12 steps: exactly one wins each, the other is told who holds it', async () => {
      const { wins } = await checkClaimRace(store, { kind: 'postgres', url, schema }, 12);
      expect((wins['agent-a'] ?? 0) + (wins['agent-b'] ?? 0)).toBe(12);
    }, 120_000);
  },
);
