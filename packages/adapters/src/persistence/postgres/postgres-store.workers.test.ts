import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { runLoadTest } from './testing/load-test.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from './testing/postgres-url.ts';

warnWhenSkipped('PostgresStore load tests');

// The short version of the load test; `npm run bench -- postgres` runs 1, 2, 4 and 8 workers
// for longer and prints the figures.
describe.skipIf(POSTGRES_URL === undefined)(
  `PostgresStore with many worker processes on 1,000 sessions${SKIPPED_WITHOUT_SERVER}`,
  () => {
    const schemas: string[] = [];
    const schema = () => {
      const name = freshSchema();
      schemas.push(name);
      return name;
    };
    afterEach(async () => {
      for (const name of schemas.splice(0)) await dropSchema(name);
    });

    it('keeps every acknowledged append of one worker, once, with no gaps', async () => {
      const report = await runLoadTest({
        url: POSTGRES_URL as string,
        schema: schema(),
        workers: 1,
        durationMs: 1_500,
      });
      expect(report.problems).toEqual([]);
      expect(report.acknowledged).toBeGreaterThan(0);
      expect(report.stored).toBe(report.acknowledged);
    }, 60_000);

    it('finds an acknowledged event that went missing', async () => {
      const name = schema();
      const report = await runLoadTest({
        url: POSTGRES_URL as string,
        schema: name,
        workers: 1,
        durationMs: 1_000,
        sessions: 10,
        // Drops the last event of the longest session and winds its version back, as a store
        // that lost a write would leave it: no gap, nothing stored twice, one event missing.
        beforeCheck: async () => {
          const admin = new pg.Client({ connectionString: POSTGRES_URL });
          await admin.connect();
          try {
            await admin.query(`WITH s AS (
                UPDATE "${name}".plankit_sessions SET version = version - 1
                 WHERE session_id = (SELECT session_id FROM "${name}".plankit_sessions
                                      ORDER BY version DESC, session_id LIMIT 1)
                RETURNING session_id, version + 1 AS seq)
              DELETE FROM "${name}".plankit_events e USING s
               WHERE e.session_id = s.session_id AND e.seq = s.seq`);
          } finally {
            await admin.end();
          }
        },
      });
      expect(report.acknowledged).toBeGreaterThan(10);
      expect(report.problems).toHaveLength(1);
      expect(report.problems[0]).toMatch(/^acknowledged event 0\.\d+ is lost$/);
    }, 60_000);

    it('keeps every acknowledged append when 4 workers share the sessions and one is SIGKILLed', async () => {
      const report = await runLoadTest({
        url: POSTGRES_URL as string,
        schema: schema(),
        workers: 4,
        durationMs: 3_000,
        kill: true,
        // Sessions change hands often here, so conflicts are sure to happen and be retried.
        stealRate: 0.3,
        sessions: 200,
      });
      expect(report.problems).toEqual([]);
      expect(report.killed?.acknowledged).toBeGreaterThan(0);
      expect(report.conflicts).toBeGreaterThan(0);
      expect(report.stored).toBe(report.acknowledged + (report.killed?.unacknowledged ?? 0));
    }, 90_000);
  },
);
