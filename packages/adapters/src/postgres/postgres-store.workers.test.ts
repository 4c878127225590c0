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
