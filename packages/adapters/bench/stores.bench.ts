import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PostgresStore } from '@plankit/adapters/postgres';
import type { NewEvent, SessionStore } from '@plankit/adapters/stores';
import { FileStore } from '@plankit/adapters/stores';
import pg from 'pg';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';

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
const line = (n: number): string => `${JSON.stringify({ seq: n, ...event(n) })}\n`;

const LOAD_EVENTS = 10_000;
const POSTGRES_URL = process.env['PLANKIT_PG_URL'] || undefined;

const directories: string[] = [];
function tempDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'plankit-bench-'));
  directories.push(directory);
  return directory;
}
process.on('exit', () => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function expectOk<T>(result: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** Appends `count` events to a new session, 500 at a time. */
async function fill(store: SessionStore, sessionId: string, count: number): Promise<void> {
  for (let version = 0; version < count; version += 500) {
    const batch = Array.from({ length: Math.min(500, count - version) }, (_, i) =>
      event(version + i + 1),
    );
    expectOk(await store.append(sessionId, version, batch));
  }
}

/** One append after another to one session: each run is one acknowledged (synced) event. */
function appendSide(store: SessionStore): BenchSide {
  let version = 0;
  return {
    run: async () => {
      version = expectOk(await store.append('bench-append', version, [event(version + 1)]));
      return version;
    },
  };
}

const fileCases: BenchCase[] = [
  {
    name: 'FileStore append, 1 event',
    what: 'store.append (lock, tail read, write, fdatasync) vs fs.appendFile with flush (fsync)',
    plankit: () => appendSide(new FileStore({ directory: tempDirectory() })),
    baseline: () => {
      const file = path.join(tempDirectory(), 'plain.jsonl');
      let n = 0;
      return { run: () => appendFile(file, line(++n), { flush: true }) };
    },
  },
  {
    name: 'FileStore append, 1 event, unsynced baseline',
    what: 'store.append vs a plain fs.appendFile loop (no fsync: not durable)',
    plankit: () => appendSide(new FileStore({ directory: tempDirectory() })),
    baseline: () => {
      const file = path.join(tempDirectory(), 'plain.jsonl');
      let n = 0;
      return { run: () => appendFile(file, line(++n)) };
    },
  },
  {
    name: `FileStore load, ${LOAD_EVENTS.toLocaleString('en-US')} events`,
    what: 'store.load (checked, frozen) vs readFile + split + JSON.parse per line',
    plankit: async () => {
      const store = new FileStore({ directory: tempDirectory() });
      await fill(store, 'bench-load', LOAD_EVENTS);
      return {
        run: async () => {
          const loaded = expectOk(await store.load('bench-load'));
          if (loaded.events.length !== LOAD_EVENTS) throw new Error('short load');
          return loaded;
        },
      };
    },
    baseline: async () => {
      const file = path.join(tempDirectory(), 'plain.jsonl');
      let text = '';
      for (let n = 1; n <= LOAD_EVENTS; n++) text += line(n);
      await appendFile(file, text);
      return {
        run: async () => {
          const lines = (await readFile(file, 'utf8')).split('\n');
          lines.pop();
          return lines.map((each) => JSON.parse(each) as unknown);
        },
      };
    },
  },
];

/** PostgreSQL: a store in its own schema, and a plain table beside it for the baselines. */
function postgresCases(url: string): BenchCase[] {
  const schema = `plankit_bench_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: url, max: 4, allowExitOnIdle: true });
  pool.on('error', () => {});
  const store = new PostgresStore({ pool, schema });
  let plain: Promise<void> | undefined;
  const plainTable = () => {
    plain ??= (async () => {
      expectOk(await store.migrate());
      await pool.query(
        `CREATE TABLE "${schema}".plain (session_id text, seq bigint, data json, PRIMARY KEY (session_id, seq))`,
      );
    })();
    return plain;
  };
  let cleaned = false;
  process.on('beforeExit', () => {
    if (cleaned) return;
    cleaned = true;
    void pool
      .query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      .then(() => pool.end())
      .catch(() => {});
  });
  return [
    {
      name: 'PostgresStore append, 1 event',
      what: 'store.append (one statement: version check, session row, event row) vs a plain INSERT',
      plankit: async () => {
        await plainTable();
        return appendSide(store);
      },
      baseline: async () => {
        await plainTable();
        let n = 0;
        return {
          run: () => {
            n++;
            return pool.query(`INSERT INTO "${schema}".plain VALUES ($1, $2, $3)`, [
              'bench-append',
              n,
              JSON.stringify(event(n).data),
            ]);
          },
        };
      },
    },
    {
      name: `PostgresStore load, ${LOAD_EVENTS.toLocaleString('en-US')} events`,
      what: 'store.load (one statement, checked, frozen) vs SELECT ... ORDER BY seq',
      plankit: async () => {
        await plainTable();
        await fill(store, 'bench-load', LOAD_EVENTS);
        return {
          run: async () => {
            const loaded = expectOk(await store.load('bench-load'));
            if (loaded.events.length !== LOAD_EVENTS) throw new Error('short load');
            return loaded;
          },
        };
      },
      baseline: async () => {
        await plainTable();
        const values = Array.from({ length: LOAD_EVENTS }, (_, i) =>
          JSON.stringify(event(i + 1).data),
        );
        await pool.query(
          `INSERT INTO "${schema}".plain SELECT 'bench-load', n, d FROM unnest($1::json[]) WITH ORDINALITY AS t(d, n)`,
          [values],
        );
        return {
          run: async () => {
            const { rows } = await pool.query(
              `SELECT seq, data FROM "${schema}".plain WHERE session_id = $1 ORDER BY seq`,
              ['bench-load'],
            );
            if (rows.length !== LOAD_EVENTS) throw new Error('short load');
            return rows;
          },
        };
      },
    },
  ];
}

if (POSTGRES_URL === undefined) {
  process.stderr.write(
    'stores.bench.ts: PLANKIT_PG_URL is not set, so the PostgresStore rows are left out (bash scripts/postgres.sh run -- npm run bench).\n',
  );
}

/** Session stores: appends and loads next to the plain file and SQL calls they wrap. */
export const suite: BenchSuite = {
  name: '@plankit/adapters stores',
  cases: [...fileCases, ...(POSTGRES_URL === undefined ? [] : postgresCases(POSTGRES_URL))],
};
