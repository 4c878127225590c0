import net from 'node:net';
import * as fc from 'fast-check';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotSchema } from '../stores/snapshot-schema.ts';
import {
  describeStoreContract,
  err,
  events,
  ok,
  storeHarness,
} from '../stores/testing/store-contract.ts';
import { pgFailure } from './pg-error.ts';
import { PostgresStore } from './postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
  warnWhenSkipped,
} from './testing/postgres-url.ts';

warnWhenSkipped('PostgresStore tests');

/** A one-connection pool that counts the statements sent through `pool.query`. */
function countingPool(): { pool: pg.Pool; sent: () => number } {
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
  let count = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  Object.assign(pool, {
    query: (...args: unknown[]) => {
      count++;
      return query(...args);
    },
  });
  return { pool, sent: () => count };
}

/** The rows of `table` the server has read so far (sequential scans plus index fetches). */
async function rowsRead(admin: pg.Client, schema: string, table: string): Promise<number> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ n: string }>(
    `SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n
       FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2`,
    [schema, table],
  );
  return Number(rows[0]?.n ?? Number.NaN);
}

/**
 * Makes the backend of a one-connection pool publish its table statistics now (they are
 * otherwise flushed at most once a second). Before PostgreSQL 15, waits for the flush.
 */
async function flushStats(pool: pg.Pool): Promise<void> {
  try {
    await pool.query('SELECT pg_stat_force_next_flush()');
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  }
}

/** A loopback port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(POSTGRES_URL === undefined)(`PostgresStore${SKIPPED_WITHOUT_SERVER}`, () => {
  describeStoreContract(
    'PostgresStore',
    async () => {
      const schema = freshSchema();
      return storeHarness(
        (snapshotSchema?: SnapshotSchema) =>
          new PostgresStore({
            connectionString: POSTGRES_URL,
            schema,
            poolSize: 4,
            ...(snapshotSchema === undefined ? {} : { snapshotSchema }),
          }),
        () => dropSchema(schema),
      );
    },
    { sharedStorage: true },
  );

  describe('PostgresStore on a server', () => {
    let schema: string;
    let admin: pg.Client;
    const stores: PostgresStore[] = [];
    const open = (options: ConstructorParameters<typeof PostgresStore>[0] = {}) => {
      const store = new PostgresStore({ connectionString: POSTGRES_URL, schema, ...options });
      stores.push(store);
      return store;
    };

    beforeEach(async () => {
      schema = freshSchema();
      admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
    });

    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      await admin.end();
      await dropSchema(schema);
    });

    it('creates its tables once, even with many workers migrating at once', async () => {
      const racing = Array.from({ length: 5 }, () => open({ poolSize: 1 }));
      const results = await Promise.all(racing.map((store) => store.migrate()));
      for (const result of results) ok(result);
      ok(await open().migrate());
      const tables = await admin.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
        [schema],
      );
      expect(tables.rows.map((row) => row.table_name)).toEqual([
        'plankit_events',
        'plankit_migrations',
        'plankit_sessions',
        'plankit_snapshots',
      ]);
      const applied = await admin.query(`SELECT version FROM "${schema}".plankit_migrations`);
      expect(applied.rows).toEqual([{ version: 1 }]);
    });

    it('keeps events as exact json and snapshots as jsonb', async () => {
      const store = open({ tablePrefix: 'agent_' });
      ok(
        await store.append('s', 0, [{ type: 'test.Event', at: 1.5, data: { b: 1, a: '\u0000' } }]),
      );
      ok(await store.saveSnapshot('s', { version: 1, data: { b: 1, a: 2 } }));
      const event = await admin.query(
        `SELECT data::text AS data, pg_typeof(data)::text AS type FROM "${schema}".agent_events`,
      );
      expect(event.rows).toEqual([{ data: '{"b":1,"a":"\\u0000"}', type: 'json' }]);
      const snapshot = await admin.query(
        `SELECT pg_typeof(data)::text AS type, schema_version FROM "${schema}".agent_snapshots`,
      );
      expect(snapshot.rows).toEqual([{ type: 'jsonb', schema_version: 1 }]);
    });

    it('gives back every event time exactly, whatever extra_float_digits says', async () => {
      // Servers before 12, and hosts that set it for their own reasons, print float8 with 15
      // significant digits under extra_float_digits = 0.
      const times = [
        0.1 + 0.2,
        1_700_000_000_000.123,
        Date.now() + 0.5,
        Math.PI * 1e12,
        Number.MAX_VALUE,
        -Number.MAX_VALUE,
        Number.MIN_VALUE,
        2 ** 53 + 2,
        -1 / 3,
        0,
      ];
      for (const digits of [0, -15, 3]) {
        const pool = new pg.Pool({
          connectionString: POSTGRES_URL,
          max: 2,
          options: `-c extra_float_digits=${digits}`,
        });
        const setting = await pool.query<{ extra_float_digits: string }>('SHOW extra_float_digits');
        expect(setting.rows[0]?.extra_float_digits).toBe(String(digits));
        const store = new PostgresStore({ pool, schema });
        const id = `floats${digits + 20}`;
        ok(
          await store.append(
            id,
            0,
            times.map((at) => ({ type: 'test.Event', at, data: { at } })),
          ),
        );
        const loaded = ok(await store.load(id));
        expect(loaded.events.map((event) => event.at)).toEqual(times);
        expect(loaded.events.map((event) => (event.data as { at: number }).at)).toEqual(times);
        await store.close();
        await pool.end();
      }
      await fc.assert(
        fc.asyncProperty(fc.double({ noNaN: true, noDefaultInfinity: true }), async (at) => {
          const pool = new pg.Pool({
            connectionString: POSTGRES_URL,
            max: 1,
            options: '-c extra_float_digits=0',
          });
          const store = new PostgresStore({ pool, schema });
          const id = `f${Math.random().toString(36).slice(2)}`;
          ok(await store.append(id, 0, [{ type: 'test.Event', at, data: null }]));
          const [event] = ok(await store.load(id)).events;
          // JSON has no negative zero: every store gives 0 back for -0.
          expect(event?.at).toBe(Object.is(at, -0) ? 0 : at);
          await store.close();
          await pool.end();
        }),
        { numRuns: 30 },
      );
    });

    it('appends with one statement, prepared once per connection', async () => {
      const { pool, sent } = countingPool();
      const store = new PostgresStore({ pool, schema });
      ok(await store.migrate());
      const before = sent();
      let version = 0;
      for (let i = 0; i < 20; i++)
        version = ok(await store.append('s', version, events(1, version + 1)));
      version = ok(await store.append('s', version, events(3, version + 1)));
      expect(sent() - before).toBe(21);
      const loaded = ok(await store.load('s'));
      expect(loaded.events.map((event) => event.sequence)).toEqual(
        Array.from({ length: 23 }, (_, i) => i + 1),
      );
      expect(sent() - before).toBe(22);
      // A stale append costs a second statement, to name the version it lost to.
      err(await store.append('s', 5, events(1, 6)), 'conflict');
      expect(sent() - before).toBe(24);
      const prepared = await pool.query<{ name: string }>(
        'SELECT name FROM pg_prepared_statements ORDER BY name',
      );
      // create-one, move-one, move-many, load, version
      expect(prepared.rows.length).toBe(5);
      for (const { name } of prepared.rows) expect(name).toMatch(/^plankit_[0-9a-f]{24}$/);
      await store.close();
      await pool.end();
    });

    it('sends unnamed statements with preparedStatements: false (PgBouncer transaction mode)', async () => {
      const { pool } = countingPool();
      const store = new PostgresStore({ pool, schema, preparedStatements: false });
      ok(await store.append('s', 0, events(1)));
      ok(await store.append('s', 1, events(2, 2)));
      ok(await store.saveSnapshot('s', { version: 2, data: { at: 2 } }));
      const loaded = ok(await store.load('s'));
      expect(loaded.snapshot?.version).toBe(2);
      expect(loaded.events.map((event) => event.sequence)).toEqual([3]);
      expect(ok(await store.list())).toEqual(['s']);
      expect(ok(await store.delete('s'))).toBe(true);
      const prepared = await pool.query('SELECT name FROM pg_prepared_statements');
      expect(prepared.rows).toEqual([]);
      await store.close();
      await pool.end();
    });

    it('loads a 100,000-event session by reading its snapshot and the tail only', async () => {
      const writer = open({ poolSize: 2 });
      const total = 100_000;
      const every = 1_000;
      for (let version = 0; version < total; ) {
        const batch = Array.from({ length: 5_000 }, (_, i) => ({
          type: 'test.Event',
          at: version + i + 1,
          data: { n: version + i + 1 },
        }));
        version = ok(await writer.append('long', version, batch));
        // A snapshot every `every` events, as attachStore's snapshotEvery writes them.
        for (let at = version - 5_000 + every; at <= version; at += every) {
          ok(await writer.saveSnapshot('long', { version: at, data: { n: at } }));
        }
      }
      ok(await writer.append('long', total, events(37, total + 1)));
      const { pool, sent } = countingPool();
      const store = new PostgresStore({ pool, schema, migrate: false });
      const read = async (options?: { snapshot: boolean }) => {
        await flushStats(pool);
        const before = await rowsRead(admin, schema, 'plankit_events');
        const statements = sent();
        const loaded = ok(await store.load('long', options));
        expect(sent() - statements).toBe(1);
        await flushStats(pool);
        return { loaded, rows: (await rowsRead(admin, schema, 'plankit_events')) - before };
      };
      const tail = await read();
      expect(tail.loaded.version).toBe(total + 37);
      expect(tail.loaded.snapshot).toMatchObject({ version: total, data: { n: total } });
      expect(tail.loaded.events.map((event) => event.sequence)).toEqual(
        Array.from({ length: 37 }, (_, i) => total + i + 1),
      );
      // The statistics count what the server read: the 37 tail events, not the history.
      expect(tail.rows).toBeGreaterThanOrEqual(37);
      expect(tail.rows).toBeLessThanOrEqual(37 + 2);
      // The same measurement sees the whole log read when the snapshot is refused.
      const full = await read({ snapshot: false });
      expect(full.loaded.events.length).toBe(total + 37);
      expect(full.rows).toBeGreaterThanOrEqual(total + 37);
      await store.close();
      await pool.end();
    }, 60_000);

    it('works on tables partitioned by session id, created by hand as docs/persistence.md shows', async () => {
      // The statements of docs/persistence.md, in the test's schema.
      await admin.query(`CREATE SCHEMA "${schema}"`);
      await admin.query(`SET search_path TO "${schema}"`);
      await admin.query(`CREATE TABLE plankit_sessions (
          session_id text COLLATE "C" PRIMARY KEY,
          version bigint NOT NULL CHECK (version > 0),
          updated_at timestamptz NOT NULL DEFAULT now()
        ) WITH (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01)`);
      await admin.query(`CREATE TABLE plankit_events (
          session_id text COLLATE "C" NOT NULL
            REFERENCES plankit_sessions (session_id) ON DELETE CASCADE,
          seq bigint NOT NULL CHECK (seq > 0),
          type text NOT NULL,
          at double precision NOT NULL,
          data json NOT NULL,
          PRIMARY KEY (session_id, seq)
        ) PARTITION BY HASH (session_id)`);
      await admin.query(`DO $$ BEGIN
          FOR i IN 0..15 LOOP
            EXECUTE format('CREATE TABLE plankit_events_%s PARTITION OF plankit_events
                              FOR VALUES WITH (MODULUS 16, REMAINDER %s)', i, i);
          END LOOP;
        END $$`);
      await admin.query(`CREATE TABLE plankit_snapshots (
          session_id text COLLATE "C" PRIMARY KEY
            REFERENCES plankit_sessions (session_id) ON DELETE CASCADE,
          version bigint NOT NULL CHECK (version > 0),
          schema_version integer NOT NULL CHECK (schema_version > 0),
          data jsonb NOT NULL,
          saved_at timestamptz NOT NULL DEFAULT now()
        ) WITH (autovacuum_vacuum_scale_factor = 0.01)`);
      const store = open();
      ok(await store.migrate());
      for (let i = 0; i < 40; i++) {
        ok(await store.append(`s${i}`, 0, events(2)));
        ok(await store.append(`s${i}`, 2, events(1, 3)));
      }
      ok(await store.saveSnapshot('s7', { version: 2, data: { n: 2 } }));
      const loaded = ok(await store.load('s7'));
      expect(loaded.snapshot?.version).toBe(2);
      expect(loaded.events.map((event) => event.sequence)).toEqual([3]);
      err(await store.append('s7', 2, events(1, 3)), 'conflict');
      expect(ok(await store.delete('s7'))).toBe(true);
      const spread = await admin.query<{ partitions: string; rows: string }>(
        `SELECT count(DISTINCT tableoid) AS partitions, count(*) AS rows FROM plankit_events`,
      );
      expect(Number(spread.rows[0]?.rows)).toBe(39 * 3);
      expect(Number(spread.rows[0]?.partitions)).toBeGreaterThan(8);
      const partitions = await admin.query(
        `SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'plankit_events'::regclass`,
      );
      expect(partitions.rows).toEqual([{ n: 16 }]);
    });

    it('refuses rows edited by hand with corrupt: an event missing, added or out of range', async () => {
      const store = open();
      const table = (name: string) => `"${schema}".plankit_${name}`;
      const edits: [string, string, string][] = [
        ['a row deleted', `DELETE FROM ${table('events')} WHERE seq = 2`, 'event 2 is missing'],
        [
          'the last row deleted',
          `DELETE FROM ${table('events')} WHERE seq = 4`,
          'event 4 is missing (the session',
        ],
        ['a version raised', `UPDATE ${table('sessions')} SET version = 6`, 'events 5 to 6'],
        ['a version lowered', `UPDATE ${table('sessions')} SET version = 3`, 'event 4 is beyond'],
        [
          'a row added',
          `INSERT INTO ${table('events')} VALUES ('s', 6, 'test.Event', 1, '{}')`,
          'event 6 is beyond',
        ],
        [
          'a time set to NaN',
          `UPDATE ${table('events')} SET at = 'NaN' WHERE seq = 3`,
          "event 3's time is NaN",
        ],
      ];
      for (const [what, edit, reason] of edits) {
        ok(await store.append('s', 0, events(2)));
        ok(await store.append('s', 2, events(2, 3)));
        await admin.query(edit);
        for (const options of [{}, { snapshot: false }]) {
          const error = err(await store.load('s', options), 'corrupt');
          expect(error.message, what).toContain(reason);
          expect(error.message).toContain(`"${schema}"."plankit_events"`);
        }
        ok(await store.delete('s'));
      }
    });

    it('reads the whole log past a snapshot edited ahead of its session, and replaces it', async () => {
      const store = open();
      ok(await store.append('s', 0, events(3)));
      ok(await store.saveSnapshot('s', { version: 2, data: { upTo: 2 } }));
      await admin.query(`UPDATE "${schema}".plankit_snapshots SET version = 9`);
      const loaded = ok(await store.load('s'));
      expect(loaded.snapshot).toBeNull();
      expect(loaded.events.map((event) => event.sequence)).toEqual([1, 2, 3]);
      expect(loaded.issues).toEqual([
        { code: 'snapshot_corrupt', message: expect.stringContaining('ahead of the session') },
      ]);
      // A damaged snapshot is replaced, never kept as "newer".
      expect(ok(await store.saveSnapshot('s', { version: 3, data: { upTo: 3 } }))).toBe(true);
      const again = ok(await store.load('s'));
      expect(again.snapshot?.data).toEqual({ upTo: 3 });
      expect(again.issues).toEqual([]);
    });

    it('fails cleanly without its tables when told not to migrate', async () => {
      const store = open({ migrate: false });
      const error = err(await store.load('s'), 'io');
      expect(error.message).toContain('SQLSTATE 42P01');
    });

    it('uses a pool it is given and leaves it open', async () => {
      const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
      const store = new PostgresStore({ pool, schema });
      ok(await store.append('s', 0, events(1)));
      await store.close();
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await pool.end();
    });

    /** Another connection, in a transaction holding session `id`'s row lock until it rolls back. */
    async function holdSessionRow(id: string): Promise<pg.Client> {
      const holder = new pg.Client({ connectionString: POSTGRES_URL });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(
          `SELECT 1 FROM "${schema}".plankit_sessions WHERE session_id = $1 FOR UPDATE`,
          [id],
        );
      } catch (error) {
        await holder.end();
        throw error;
      }
      return holder;
    }

    it('gives busy, not a wait without end, when a row lock is held elsewhere past lockTimeoutMs', async () => {
      const store = open({ poolSize: 2, lockTimeoutMs: 200 });
      ok(await store.append('s', 0, events(1)));
      const holder = await holdSessionRow('s');
      try {
        const blocked = err(await store.append('s', 1, events(1)), 'busy');
        expect(blocked.message).toContain(
          'PostgresStore could not append to session s: a lock held by another connection was not released within lockTimeoutMs (200 ms), so nothing was written; try again shortly:',
        );
        expect(blocked.message).toContain('SQLSTATE 55P03');
        await holder.query('ROLLBACK');
      } finally {
        await holder.end();
      }
      // Nothing was written: the next append at the same version goes through.
      expect(ok(await store.append('s', 1, events(1)))).toBe(2);
    });

    it('gives busy when a statement runs past statementTimeoutMs, and close() still ends', async () => {
      const store = open({ poolSize: 2, statementTimeoutMs: 200, lockTimeoutMs: 60_000 });
      ok(await store.append('s', 0, events(1)));
      const holder = await holdSessionRow('s');
      try {
        const blocked = err(await store.append('s', 1, events(1)), 'busy');
        expect(blocked.message).toContain(
          'the statement did not finish within statementTimeoutMs (200 ms) and was canceled, so nothing was written',
        );
        expect(blocked.message).toContain('SQLSTATE 57014');
        // The lock is still held, and close() does not wait for it.
        await store.close();
        await holder.query('ROLLBACK');
      } finally {
        await holder.end();
      }
    });

    it('carries on after the server drops its connections', async () => {
      // Its own connections only, told apart by name: other test files (DBOS's workers among
      // them) share this server, and dropping their connections would fail them instead.
      const name = `plankit-drop-${process.pid}-${schema}`.slice(0, 63);
      const url = new URL(POSTGRES_URL as string);
      url.searchParams.set('application_name', name);
      const store = open({ poolSize: 2, connectionString: url.href });
      ok(await store.append('s', 0, events(1)));
      const dropped = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1`,
        [name],
      );
      expect(dropped.rowCount).toBeGreaterThan(0);
      const first = await store.load('s');
      if (!first.ok) expect(first.error.code).toBe('unreachable');
      expect(ok(await store.load('s')).version).toBe(1);
    });
  });
});

describe('PostgresStore', () => {
  it('gives unreachable, never a throw, when no server listens', async () => {
    const port = await closedPort();
    const store = new PostgresStore({
      connectionString: `postgres://plankit:secret@127.0.0.1:${port}/postgres`,
      connectionTimeoutMs: 2_000,
    });
    for (const result of [
      await store.migrate(),
      await store.load('s'),
      await store.append('s', 0, events(1)),
      await store.saveSnapshot('s', { version: 1, data: {} }),
      await store.list(),
      await store.delete('s'),
    ]) {
      const error = err(result, 'unreachable');
      expect(error.message).toContain('the server is unreachable');
      expect(error.message).toContain('ECONNREFUSED');
    }
    // Bad input is still refused before any connection is tried.
    err(await store.load('../x'), 'session_id_invalid');
    await store.close();
    err(await store.load('s'), 'closed');
  });

  it('types a server that stops answering as unreachable, naming the time limit', () => {
    const failure = pgFailure(new Error('Query read timeout'), 'load', 's', {
      statementTimeoutMs: 30_000,
      lockTimeoutMs: 5_000,
      answerTimeoutMs: 35_000,
    });
    expect(failure.error.code).toBe('unreachable');
    expect(failure.error.message).toBe(
      'PostgresStore could not load session s: the server did not answer within 35000 ms (statementTimeoutMs plus 5,000 ms), so the connection was dropped: Query read timeout',
    );
  });

  it('refuses bad options', () => {
    const pool = new pg.Pool();
    for (const options of [
      { schema: 'Bad' },
      { schema: 'a;drop table x' },
      { tablePrefix: '1x' },
      { tablePrefix: 'x'.repeat(41) },
      { poolSize: 0 },
      { connectionTimeoutMs: 1.5 },
      { statementTimeoutMs: 0 },
      { lockTimeoutMs: 1.5 },
      { statementTimeoutMs: 2 ** 31 },
      { pool, lockTimeoutMs: 1_000 },
      { pool, statementTimeoutMs: 1_000 },
      { migrate: 'yes' },
      { preparedStatements: 1 },
      { connectionString: '' },
      { pool: {} },
      { pool, connectionString: 'postgres://x' },
      { host: 'x' },
    ]) {
      expect(
        () => new PostgresStore(options as never),
        JSON.stringify(Object.keys(options)),
      ).toThrow(expect.objectContaining({ code: 'argument_invalid' }));
    }
    void pool.end();
  });
});
