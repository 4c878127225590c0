import { randomBytes } from 'node:crypto';
import { PostgresStore } from '@plankit/adapters/postgres';
import type { NewEvent, SessionStore } from '@plankit/adapters/stores';
import pg from 'pg';
import type { BenchCase, BenchCount, BenchSuite } from '../../../scripts/bench.ts';
import { type LoadTestReport, runLoadTest } from '../src/persistence/postgres/testing/load-test.ts';

// PostgresStore on a real server: `bash scripts/postgres.sh run -- npm run bench -- postgres`.

const POSTGRES_URL = process.env['PLANKIT_PG_URL'] || undefined;
const LOAD_EVENTS = 10_000;
const LONG = 100_000;
const SHORT = 100;
/** attachStore's default `snapshotEvery`. */
const SNAPSHOT_EVERY = 100;
/** Events after the latest snapshot, in both sessions of the long-versus-short row. */
const TAIL = 50;
const WORKER_COUNTS = [1, 2, 4, 8];
const LOAD_TEST_MS = 5_000;

// A typical event: a committed plan step, about 200 bytes as JSON.
const event = (n: number): NewEvent => ({
  type: 'plankit.session.committed',
  at: 1_700_000_000_000 + n,
  data: {
    changes: [
      {
        dataType: 'plankit.MarkStep',
        value: {
          step_id: `S${String((n % 999) + 1).padStart(3, '0')}`,
          status: 'done',
          note: `Finished item ${n}.`,
        },
      },
    ],
  },
});

// A snapshot of a 20-step plan, about 2 KB as JSON.
const snapshot = (version: number) => ({
  version,
  data: {
    plan: Array.from({ length: 20 }, (_, i) => ({
      step_id: `S${String(i + 1).padStart(3, '0')}`,
      title: `Step ${i + 1} of the plan, written out at some length`,
      status: i < version % 20 ? 'done' : 'pending',
      notes: [`Note about step ${i + 1}.`],
    })),
  },
});

function expectOk<T>(result: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** Appends `count` events to a new session, 500 at a time, with a snapshot every `every`. */
async function fill(
  store: SessionStore,
  sessionId: string,
  count: number,
  every = Number.POSITIVE_INFINITY,
): Promise<void> {
  for (let version = 0; version < count; ) {
    const batch = Array.from({ length: Math.min(500, count - version) }, (_, i) =>
      event(version + i + 1),
    );
    const next = expectOk(await store.append(sessionId, version, batch));
    for (let at = Math.ceil((version + 1) / every) * every; at <= next; at += every) {
      expectOk(await store.saveSnapshot(sessionId, snapshot(at)));
    }
    version = next;
  }
}

/** A load of a session, checked for its length. */
function loadSide(store: SessionStore, sessionId: string, events: number) {
  return {
    run: async () => {
      const loaded = expectOk(await store.load(sessionId));
      if (loaded.events.length !== events) throw new Error('wrong load');
      return loaded;
    },
  };
}

/** PostgreSQL: a store in its own schema, and a plain table beside it for the baselines. */
function postgresCases(schema: string, pool: pg.Pool, unsynced: pg.Pool): BenchCase[] {
  const store = new PostgresStore({ pool, schema });
  let plain: Promise<void> | undefined;
  const plainTable = () => {
    plain ??= (async () => {
      expectOk(await store.migrate());
      // The events table's columns and key, without the session row and its version check.
      await pool.query(
        `CREATE TABLE "${schema}".plain (session_id text COLLATE "C", seq bigint, type text,
           at double precision, data json, PRIMARY KEY (session_id, seq))`,
      );
    })();
    return plain;
  };
  /** One event appended by the store, against a plain INSERT of the same row on `on`. */
  const appendCase = (
    name: string,
    what: string,
    target: PostgresStore,
    on: pg.Pool,
    sessionId: string,
  ): BenchCase => ({
    name,
    what,
    maxRatio: 1.5,
    plankit: async () => {
      await plainTable();
      let version = 0;
      return {
        run: async () => {
          version = expectOk(await target.append(sessionId, version, [event(version + 1)]));
          return version;
        },
      };
    },
    baseline: async () => {
      await plainTable();
      let n = 0;
      return {
        run: () => {
          const { type, at, data } = event(++n);
          return on.query(`INSERT INTO "${schema}".plain VALUES ($1, $2, $3, $4, $5)`, [
            sessionId,
            n,
            type,
            at,
            JSON.stringify(data),
          ]);
        },
      };
    },
  });
  return [
    appendCase(
      'PostgresStore append, 1 event',
      'store.append (one prepared statement: version check, session row, event row) vs a plain INSERT of the same row',
      store,
      pool,
      'bench-append',
    ),
    // The disk's fsync is most of an append's time and, on a shared machine, its noise:
    // without waiting for it, this row shows what the statement itself costs.
    appendCase(
      'PostgresStore append, 1 event, synchronous_commit off',
      'the same two, on connections with synchronous_commit = off (no wait for the WAL flush)',
      new PostgresStore({ pool: unsynced, schema, migrate: false }),
      unsynced,
      'bench-unsynced',
    ),
    {
      name: `PostgresStore load, ${LOAD_EVENTS.toLocaleString('en-US')} events`,
      what: 'store.load (one statement, checked, frozen) vs SELECT ... ORDER BY seq',
      plankit: async () => {
        await plainTable();
        await fill(store, 'bench-load', LOAD_EVENTS);
        return loadSide(store, 'bench-load', LOAD_EVENTS);
      },
      baseline: async () => {
        await plainTable();
        const values = Array.from({ length: LOAD_EVENTS }, (_, i) =>
          JSON.stringify(event(i + 1).data),
        );
        await pool.query(
          `INSERT INTO "${schema}".plain
             SELECT 'bench-load', n, 'plankit.session.committed', n, d
               FROM unnest($1::json[]) WITH ORDINALITY AS t(d, n)`,
          [values],
        );
        return {
          run: async () => {
            const { rows } = await pool.query(
              `SELECT seq, type, at, data FROM "${schema}".plain WHERE session_id = $1 ORDER BY seq`,
              ['bench-load'],
            );
            if (rows.length !== LOAD_EVENTS) throw new Error('short load');
            return rows;
          },
        };
      },
    },
    {
      name: `PostgresStore load, ${LONG.toLocaleString('en-US')} events vs ${SHORT}`,
      what: `store.load of a session of ${LONG.toLocaleString('en-US')} + ${TAIL} events vs one of ${SHORT} + ${TAIL}, both with a snapshot every ${SNAPSHOT_EVERY} (attachStore's default): the snapshot and ${TAIL} events each`,
      maxRatio: 1.5,
      plankit: async () => {
        await plainTable();
        await fill(store, 'bench-long', LONG + TAIL, SNAPSHOT_EVERY);
        return loadSide(store, 'bench-long', TAIL);
      },
      baseline: async () => {
        await plainTable();
        await fill(store, 'bench-short', SHORT + TAIL, SNAPSHOT_EVERY);
        return loadSide(store, 'bench-short', TAIL);
      },
    },
  ];
}

const formatRate = (value: number): string => Math.round(value).toLocaleString('en-US').padStart(7);

/**
 * Runs the load test with 1, 2, 4 and 8 workers, then in the opposite order (so a slow spell
 * of a shared machine does not land on one worker count only), then 8 with one SIGKILLed, and
 * prints every run and the scaling of the two rounds together.
 */
async function loadTest(url: string, admin: pg.Pool, counts: BenchCount[]): Promise<void> {
  const runs: { label: string; workers: number; report: LoadTestReport }[] = [];
  const run = async (label: string, workers: number, kill: boolean) => {
    const schema = `plankit_bench_${randomBytes(4).toString('hex')}`;
    try {
      const report = await runLoadTest({ url, schema, workers, durationMs: LOAD_TEST_MS, kill });
      runs.push({ label, workers, report });
      if (report.problems.length > 0) {
        throw new Error(
          `PostgresStore load test, ${label}: ${report.problems.length} problems: ${report.problems.slice(0, 5).join('; ')}`,
        );
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  };
  for (const workers of WORKER_COUNTS)
    await run(`${workers} worker${workers === 1 ? '' : 's'}, round 1`, workers, false);
  for (const workers of [...WORKER_COUNTS].reverse()) {
    await run(`${workers} worker${workers === 1 ? '' : 's'}, round 2`, workers, false);
  }
  await run('8 workers, 1 SIGKILLed', 8, true);
  const rate = (workers: number) => {
    const mine = runs.filter(
      (each) => each.workers === workers && each.report.killed === undefined,
    );
    const acknowledged = mine.reduce((sum, each) => sum + each.report.acknowledged, 0);
    return acknowledged / ((mine.length * LOAD_TEST_MS) / 1000);
  };
  const single = rate(1);
  console.log('');
  console.log(
    `PostgresStore load test: worker processes appending one event at a time for ${LOAD_TEST_MS / 1000} s to 1,000 sessions on one server`,
  );
  console.log(
    '(4 agents and 4 connections per worker; 5% of appends go to a session another worker holds; then every session is read back)',
  );
  console.log(
    'run                       appends/s  p50 ms  p99 ms  conflicts  acknowledged  stored  lost',
  );
  for (const { label, report } of runs) {
    const lost = report.problems.filter((problem) => problem.includes('lost')).length;
    const killed =
      report.killed === undefined
        ? ''
        : `  (killed worker: ${report.killed.acknowledged} acknowledged, all kept; ${report.killed.unacknowledged} in flight stored)`;
    console.log(
      `${label.padEnd(25)} ${formatRate(report.appendsPerSecond)}  ${report.p50Ms.toFixed(2).padStart(6)}  ${report.p99Ms.toFixed(2).padStart(6)}  ${String(report.conflicts).padStart(9)}  ${String(report.acknowledged).padStart(12)}  ${String(report.stored).padStart(6)}  ${String(lost).padStart(4)}${killed}`,
    );
  }
  console.log('');
  // The scaling ratios also go to the runner's counted rows (and so to its report).
  for (const workers of WORKER_COUNTS.slice(1)) {
    counts.push({
      name: `PostgresStore appends/s, ${workers} workers vs 1`,
      what: `acknowledged appends per second of the load test (both rounds), ${workers} worker processes vs 1`,
      plankit: Math.round(rate(workers)),
      baseline: Math.round(single),
    });
  }
  console.log('workers  appends/s (both rounds)  scaling vs 1');
  for (const workers of WORKER_COUNTS) {
    console.log(
      `${String(workers).padStart(7)}  ${formatRate(rate(workers)).padStart(23)}  ${`${(rate(workers) / single).toFixed(2)}x`.padStart(12)}`,
    );
  }
  console.log('');
}

function postgresSuite(url: string): BenchSuite {
  const schema = `plankit_bench_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: url, max: 4, allowExitOnIdle: true });
  pool.on('error', () => {});
  const unsynced = new pg.Pool({
    connectionString: url,
    max: 2,
    allowExitOnIdle: true,
    options: '-c synchronous_commit=off',
  });
  unsynced.on('error', () => {});
  let cleaned = false;
  process.on('beforeExit', () => {
    if (cleaned) return;
    cleaned = true;
    void pool
      .query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      .then(() => Promise.all([pool.end(), unsynced.end()]))
      .catch(() => {});
  });
  const counts: BenchCount[] = [];
  return {
    name: '@plankit/adapters PostgresStore',
    cases: postgresCases(schema, pool, unsynced),
    // Filled by the load test, which runs before the runner prints these.
    counts,
    // Not a timed pair: the load test runs once, before the timed rows, and prints its own
    // table; it throws when any acknowledged event is missing.
    check: () => loadTest(url, pool, counts),
  };
}

if (POSTGRES_URL === undefined) {
  process.stderr.write(
    'postgres.bench.ts: SKIPPED: PLANKIT_PG_URL is not set, so the PostgresStore rows and the load test are left out (bash scripts/postgres.sh run -- npm run bench -- postgres).\n',
  );
}

/** PostgresStore: appends and loads next to plain SQL, and the many-worker load test. */
export const suite: BenchSuite =
  POSTGRES_URL === undefined
    ? { name: '@plankit/adapters PostgresStore', cases: [] }
    : postgresSuite(POSTGRES_URL);
