import type { Err, Result } from '@plankit/core';
import { checkOptionKeys, deepFreeze, invalidArgument } from '@plankit/core/internal-unstable';
import pg from 'pg';
import type {
  JsonValue,
  ListOptions,
  LoadedSession,
  LoadOptions,
  NewEvent,
  SessionStore,
  SnapshotInput,
  StopWatching,
  StoreCommit,
  StoredEvent,
  StoredSnapshot,
  StoreIssue,
} from '../stores/session-store.ts';
import {
  type CheckedSnapshotSchema,
  checkSnapshotSchema,
  loadSnapshot,
  type SnapshotSchema,
} from '../stores/snapshot-schema.ts';
import { StoreError } from '../stores/store-error.ts';
import { notFound, snapshotAhead, versionConflict } from '../stores/store-failures.ts';
import {
  checkAppend,
  checkListOptions,
  checkLoadOptions,
  checkSessionId,
  checkSnapshot,
} from '../stores/store-input.ts';
import { StoreLifecycle } from '../stores/store-lifecycle.ts';
import { commitChannel, listenForCommits } from './commit-notices.ts';
import { pgFailure, type StatementLimits, sqlState } from './pg-error.ts';
import { migrationSteps, type TableNames, tableNames } from './postgres-schema.ts';
import { type Statement, type Statements, statements } from './postgres-statements.ts';

/** Options of {@link PostgresStore}. @public */
export interface PostgresStoreOptions {
  /**
   * A pool the host owns: the store uses it and leaves it open on `close()`. Give either this
   * or `connectionString`; with neither, the store opens a pool from the `PG*` environment
   * variables.
   */
  readonly pool?: pg.Pool | undefined;
  /** Where to connect (`postgres://user:password@host:port/database`); the store owns the pool. */
  readonly connectionString?: string | undefined;
  /** Connections in a pool the store opens; 10 by default. */
  readonly poolSize?: number | undefined;
  /** How long a pool the store opens waits to connect before `unreachable`, in ms; 10,000 by default. */
  readonly connectionTimeoutMs?: number | undefined;
  /**
   * How long one statement may run on a pool the store opens before the server cancels it
   * (`statement_timeout`), in ms; 30,000 by default. A canceled statement wrote nothing and
   * comes back as `busy`. Every statement, on any pool, also gives up waiting for an answer
   * 5,000 ms after this limit (the default when the host gives the pool) and comes back as
   * `unreachable`, so a server that stops answering cannot hold a call, or `close()`, forever.
   */
  readonly statementTimeoutMs?: number | undefined;
  /**
   * How long a statement on a pool the store opens waits for a lock held elsewhere (a row
   * another transaction holds) before the server gives up (`lock_timeout`), in ms; 5,000 by
   * default. It comes back as `busy`, and nothing was written.
   */
  readonly lockTimeoutMs?: number | undefined;
  /** The schema holding the tables; `public` by default. */
  readonly schema?: string | undefined;
  /** Prefix of the table names; `plankit_` by default. */
  readonly tablePrefix?: string | undefined;
  /** Create or upgrade the tables on first use; `true` by default (see {@link PostgresStore.migrate}). */
  readonly migrate?: boolean | undefined;
  /** The schema version stamped on snapshots, and migrations for older ones. */
  readonly snapshotSchema?: SnapshotSchema | undefined;
  /**
   * Send the store's statements as named prepared statements, parsed and planned once per
   * connection; `true` by default. Set `false` behind PgBouncer in transaction mode before
   * 1.21 (or with its `max_prepared_statements` at 0), where a statement prepared on one
   * server connection is not there on the next.
   */
  readonly preparedStatements?: boolean | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'pool',
  'connectionString',
  'poolSize',
  'connectionTimeoutMs',
  'statementTimeoutMs',
  'lockTimeoutMs',
  'schema',
  'tablePrefix',
  'migrate',
  'snapshotSchema',
  'preparedStatements',
]);
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,39}$/;
// How much longer than a statement may run the client waits for the server's answer, so the
// server's own cancel (a clean `busy`) normally comes first.
const ANSWER_MARGIN_MS = 5_000;
const MAX_LIMIT = 2 ** 31 - 1 - ANSWER_MARGIN_MS;

interface LoadRow {
  readonly head: string;
  readonly snapshot_version: string | null;
  readonly schema_version: number | null;
  readonly snapshot_data: string | null;
  readonly events: string;
}

interface SaveRow {
  readonly head: string | null;
  readonly saved: string;
}

function checkOptions(options: PostgresStoreOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('new PostgresStore', 'options', 'must be an object');
  }
  checkOptionKeys('new PostgresStore', options, OPTION_KEYS, '');
  const {
    pool,
    connectionString,
    poolSize,
    connectionTimeoutMs,
    statementTimeoutMs,
    lockTimeoutMs,
    schema,
    tablePrefix,
    migrate,
    preparedStatements,
  } = options;
  if (pool !== undefined) {
    if (
      typeof pool !== 'object' ||
      pool === null ||
      typeof pool.query !== 'function' ||
      typeof pool.connect !== 'function'
    ) {
      throw invalidArgument('new PostgresStore', 'pool', 'must be a pg.Pool');
    }
    if (
      connectionString !== undefined ||
      poolSize !== undefined ||
      connectionTimeoutMs !== undefined
    ) {
      throw invalidArgument(
        'new PostgresStore',
        'pool',
        'excludes connectionString, poolSize and connectionTimeoutMs: configure the pool itself',
      );
    }
    if (statementTimeoutMs !== undefined || lockTimeoutMs !== undefined) {
      throw invalidArgument(
        'new PostgresStore',
        'pool',
        'excludes statementTimeoutMs and lockTimeoutMs: set statement_timeout and lock_timeout on the pool itself',
      );
    }
  }
  if (
    connectionString !== undefined &&
    (typeof connectionString !== 'string' || connectionString === '')
  ) {
    throw invalidArgument('new PostgresStore', 'connectionString', 'must be a non-empty string');
  }
  if (poolSize !== undefined && (!Number.isSafeInteger(poolSize) || poolSize < 1)) {
    throw invalidArgument('new PostgresStore', 'poolSize', 'must be a positive integer');
  }
  if (
    connectionTimeoutMs !== undefined &&
    (!Number.isSafeInteger(connectionTimeoutMs) || connectionTimeoutMs < 1)
  ) {
    throw invalidArgument('new PostgresStore', 'connectionTimeoutMs', 'must be a positive integer');
  }
  for (const [name, value] of [
    ['statementTimeoutMs', statementTimeoutMs],
    ['lockTimeoutMs', lockTimeoutMs],
  ] as const) {
    // A timer waits at most 2,147,483,647 ms, and the client waits 5,000 ms past the statement.
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1 || value > MAX_LIMIT)) {
      throw invalidArgument('new PostgresStore', name, `must be an integer from 1 to ${MAX_LIMIT}`);
    }
  }
  for (const [name, value] of [
    ['schema', schema],
    ['tablePrefix', tablePrefix],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || !IDENTIFIER.test(value))) {
      throw invalidArgument('new PostgresStore', name, `must match ${IDENTIFIER.source}`);
    }
  }
  for (const [name, value] of [
    ['migrate', migrate],
    ['preparedStatements', preparedStatements],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw invalidArgument('new PostgresStore', name, 'must be a boolean');
    }
  }
}

/**
 * A {@link SessionStore} on PostgreSQL through the `pg` package: how plankit runs when one
 * machine is not enough, with many worker processes on many machines sharing sessions. Events
 * are rows keyed by (session id, sequence) and appended by one prepared statement (one round
 * trip), so a conflicting append fails atomically; snapshots are JSONB, and a load reads the
 * latest snapshot and only the events after it. Tables are created by an idempotent migration
 * on first use. Connection failures come back as `unreachable`. For pooling (PgBouncer),
 * partitioning, snapshot cadence and vacuum at ten thousand agents, see docs/persistence.md.
 *
 * @example
 * ```ts
 * import { PostgresStore } from '@plankit/adapters/postgres';
 *
 * const store = new PostgresStore({ connectionString: process.env.DATABASE_URL });
 * const loaded = await store.load('job-42');
 * await store.close();
 * ```
 * @public
 */
export class PostgresStore implements SessionStore {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #tables: TableNames;
  readonly #sql: Statements;
  readonly #schemaName: string;
  readonly #autoMigrate: boolean;
  readonly #schema: CheckedSnapshotSchema;
  readonly #life = new StoreLifecycle('PostgresStore');
  readonly #limits: StatementLimits;
  #ready: Promise<Result<void, StoreError>> | undefined;
  #ended: Promise<void> | undefined;
  readonly #channel: string;
  readonly #watches = new Set<StopWatching>();

  /**
   * Creates the store; nothing is sent to the server before the first call.
   *
   * @param options - the pool or where to connect, the tables, the snapshot schema
   */
  constructor(options: PostgresStoreOptions = {}) {
    checkOptions(options);
    this.#schema = checkSnapshotSchema('new PostgresStore', options.snapshotSchema);
    this.#schemaName = options.schema ?? 'public';
    this.#tables = tableNames(this.#schemaName, options.tablePrefix ?? 'plankit_');
    this.#channel = commitChannel(this.#schemaName, options.tablePrefix ?? 'plankit_');
    this.#sql = statements(this.#tables, options.preparedStatements ?? true, this.#channel);
    this.#autoMigrate = options.migrate ?? true;
    const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
    const lockTimeoutMs = options.lockTimeoutMs ?? 5_000;
    this.#limits = {
      statementTimeoutMs,
      lockTimeoutMs,
      answerTimeoutMs: statementTimeoutMs + ANSWER_MARGIN_MS,
    };
    if (options.pool !== undefined) {
      this.#pool = options.pool;
      this.#ownsPool = false;
    } else {
      this.#pool = new pg.Pool({
        ...(options.connectionString === undefined
          ? {}
          : { connectionString: options.connectionString }),
        max: options.poolSize ?? 10,
        connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
        // Sent when each connection opens: the server cancels a statement, or a wait for a
        // lock, past its limit, so a row locked elsewhere cannot block appends or close().
        statement_timeout: statementTimeoutMs,
        lock_timeout: lockTimeoutMs,
        // The client's own limit, for a server that stops answering altogether.
        query_timeout: this.#limits.answerTimeoutMs,
        // A script that forgets close() still exits once its queries are done.
        allowExitOnIdle: true,
      });
      // An idle connection the server drops must not crash the host; the next call reconnects.
      this.#pool.on('error', () => {});
      this.#ownsPool = true;
    }
  }

  /**
   * Creates the tables, or upgrades them, idempotently; safe to run from many workers at once
   * (they take turns under an advisory lock). Runs by itself on first use unless the store was
   * made with `migrate: false`.
   */
  async migrate(): Promise<Result<void, StoreError>> {
    return this.#life.run(undefined, () => this.#ensureTables(true));
  }

  /** {@inheritDoc @plankit/adapters/stores!SessionStore.load} */
  async load(sessionId: string, options?: LoadOptions): Promise<Result<LoadedSession, StoreError>> {
    const useSnapshot = checkLoadOptions('PostgresStore.load', options);
    const id = checkSessionId(sessionId);
    if (!id.ok) return id;
    return this.#run(sessionId, 'load', async () => {
      const { rows } = await this.#query<LoadRow>(this.#sql.load, [sessionId, useSnapshot]);
      const row = rows[0];
      if (row === undefined) return notFound(sessionId);
      if (row.snapshot_version === null || Number(row.snapshot_version) <= Number(row.head)) {
        return this.#loaded(sessionId, row, []);
      }
      // Only an edit by hand puts a snapshot ahead of its session (saving one checks the
      // version in the same statement): read the whole log instead, as FileStore does.
      const issue: StoreIssue = {
        code: 'snapshot_corrupt',
        message: `Ignored session ${sessionId}'s snapshot because it is of version ${row.snapshot_version}, ahead of the session's ${row.head}; the session was read from its log.`,
      };
      const whole = (await this.#query<LoadRow>(this.#sql.load, [sessionId, false])).rows[0];
      if (whole === undefined) return notFound(sessionId);
      return this.#loaded(sessionId, whole, [issue]);
    });
  }

  /** {@inheritDoc @plankit/adapters/stores!SessionStore.append} */
  async append(
    sessionId: string,
    expectedVersion: number,
    events: readonly NewEvent[],
  ): Promise<Result<number, StoreError>> {
    const prepared = checkAppend('PostgresStore.append', sessionId, expectedVersion, events);
    if (!prepared.ok) return prepared;
    const lines = prepared.value;
    return this.#run(sessionId, 'append to', async () => {
      const version = expectedVersion + lines.length;
      const [line] = lines;
      const sql = this.#sql;
      try {
        const result =
          lines.length === 1 && line !== undefined
            ? await this.#query(expectedVersion === 0 ? sql.createOne : sql.moveOne, [
                sessionId,
                expectedVersion,
                version,
                line.type,
                line.at,
                line.dataText,
              ])
            : await this.#query(expectedVersion === 0 ? sql.createMany : sql.moveMany, [
                sessionId,
                expectedVersion,
                version,
                lines.map((each) => each.type),
                lines.map((each) => each.at),
                lines.map((each) => each.dataText),
              ]);
        // The statement has published the commit's notice (see commitChannel).
        if (result.rowCount === lines.length) return { ok: true, value: version };
      } catch (error) {
        if (sqlState(error) !== '23505' && sqlState(error) !== '23503') throw error;
      }
      return this.#conflict(sessionId, expectedVersion);
    });
  }

  /** {@inheritDoc @plankit/adapters/stores!SessionStore.saveSnapshot} */
  async saveSnapshot(
    sessionId: string,
    snapshot: SnapshotInput,
  ): Promise<Result<boolean, StoreError>> {
    const prepared = checkSnapshot('PostgresStore.saveSnapshot', sessionId, snapshot);
    if (!prepared.ok) return prepared;
    const { version, dataText } = prepared.value;
    return this.#run(sessionId, 'save a snapshot of', async () => {
      let row: SaveRow | undefined;
      try {
        ({
          rows: [row],
        } = await this.#query<SaveRow>(this.#sql.saveSnapshot, [
          sessionId,
          version,
          this.#schema.version,
          dataText,
        ]));
      } catch (error) {
        // The session was deleted between the check and the insert.
        if (sqlState(error) === '23503') return notFound(sessionId);
        throw error;
      }
      const head = row?.head === null || row?.head === undefined ? 0 : Number(row.head);
      if (head === 0) return notFound(sessionId);
      if (version > head) return snapshotAhead(sessionId, version, head);
      return { ok: true, value: Number(row?.saved) > 0 };
    });
  }

  /** {@inheritDoc @plankit/adapters/stores!SessionStore.list} */
  async list(options?: ListOptions): Promise<Result<readonly string[], StoreError>> {
    const { after, limit } = checkListOptions('PostgresStore.list', options);
    return this.#run(undefined, 'list the sessions', async () => {
      const { rows } = await this.#query<{ session_id: string }>(this.#sql.list, [
        after ?? null,
        limit === Number.POSITIVE_INFINITY ? null : limit,
      ]);
      return { ok: true, value: Object.freeze(rows.map((row) => row.session_id)) };
    });
  }

  /** {@inheritDoc @plankit/adapters/stores!SessionStore.delete} */
  async delete(sessionId: string): Promise<Result<boolean, StoreError>> {
    const id = checkSessionId(sessionId);
    if (!id.ok) return id;
    return this.#run(sessionId, 'delete', async () => {
      const result = await this.#query(this.#sql.delete, [sessionId]);
      return { ok: true, value: (result.rowCount ?? 0) > 0 };
    });
  }

  /**
   * Hears every commit made to this store's tables, by any process: each append publishes its
   * commit with PostgreSQL's `NOTIFY` in the append's own statement (payload: the session id
   * and its new version, never the data; sent when it commits, never when it fails), and the
   * watch `LISTEN`s on one connection of the store's pool, held for
   * its life. Notices are best effort (PostgreSQL drops them for a listener whose connection
   * fails, and keeps none for a listener that is not connected), so a watcher uses them
   * to refresh early, and still checks versions when it reads. A session pool on this store
   * uses it to keep subscribers of a conversation up to date with other workers' changes.
   *
   * @param listener - called with `{ sessionId, version }` for each commit, this process's own
   *   included
   * @param onEnd - told when the connection fails and the watch has ended
   * @returns a function that stops the watch; or `unreachable` when it cannot listen, `closed`
   */
  async watch(
    listener: (commit: StoreCommit) => void,
    onEnd: (error: StoreError) => void = () => {},
  ): Promise<Result<StopWatching, StoreError>> {
    if (typeof listener !== 'function')
      throw invalidArgument('PostgresStore.watch', 'listener', 'must be a function');
    return this.#life.run(undefined, async () => {
      let stop: StopWatching | undefined;
      const listening = await listenForCommits(this.#pool, this.#channel, listener, (error) => {
        if (stop !== undefined) this.#watches.delete(stop);
        onEnd(error);
      });
      if (!listening.ok) return listening;
      const started = listening.value;
      stop = async () => {
        this.#watches.delete(stop as StopWatching);
        await started();
      };
      this.#watches.add(stop);
      return { ok: true, value: stop };
    });
  }

  /** {@inheritDoc @plankit/adapters/stores!SessionStore.close} */
  async close(): Promise<void> {
    await this.#life.close();
    // After the calls in flight, a watch being set up included: none is left listening.
    await Promise.all([...this.#watches].map((stop) => stop()));
    if (this.#ownsPool) this.#ended ??= this.#pool.end();
    await this.#ended;
  }

  /** Sends one statement, named (prepared once per connection) unless told otherwise. */
  #query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    { text, name }: Statement,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    // query_timeout on each statement too: a host's pool may have none. `pg` reads it from
    // the query's config, though its types leave it out.
    const config: pg.QueryConfig & { readonly query_timeout: number } = {
      text,
      values,
      query_timeout: this.#limits.answerTimeoutMs,
    };
    if (name !== undefined) config.name = name;
    return this.#pool.query<R>(config);
  }

  /** Runs `call` once the tables exist, turning `pg` errors into results. */
  #run<T>(
    sessionId: string | undefined,
    action: string,
    call: () => Promise<Result<T, StoreError>>,
  ): Promise<Result<T, StoreError>> {
    return this.#life.run(sessionId, async () => {
      if (this.#autoMigrate) {
        const ready = await this.#ensureTables(false);
        if (!ready.ok) return ready;
      }
      try {
        return await call();
      } catch (error) {
        const failure = pgFailure(error, action, sessionId, this.#limits);
        if (action === 'append to' && failure.error.code === 'unreachable') {
          return pgFailure(
            error,
            'append to (the outcome is unknown: reload before retrying)',
            sessionId,
            this.#limits,
          );
        }
        return failure;
      }
    });
  }

  /** Runs the migration once per store (again after a failure, or when `force`). */
  #ensureTables(force: boolean): Promise<Result<void, StoreError>> {
    if (force || this.#ready === undefined) {
      this.#ready = this.#migrate().then((result) => {
        // Try again on the next call: the server may be back by then.
        if (!result.ok) this.#ready = undefined;
        return result;
      });
    }
    return this.#ready;
  }

  async #migrate(): Promise<Result<void, StoreError>> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      return pgFailure(error, 'create its tables in', undefined);
    }
    let broken: unknown;
    try {
      await client.query('BEGIN');
      // Workers starting together take turns; CREATE ... IF NOT EXISTS alone can still race.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `plankit:${this.#tables.migrations}`,
      ]);
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
        this.#schemaName,
      ]);
      if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${this.#tables.schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.#tables.migrations} (
           version integer PRIMARY KEY,
           applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const applied = await client.query<{ version: number }>(
        `SELECT version FROM ${this.#tables.migrations}`,
      );
      const done = new Set(applied.rows.map((row) => row.version));
      for (const [index, statements] of migrationSteps(this.#tables).entries()) {
        const version = index + 1;
        if (done.has(version)) continue;
        for (const statement of statements) await client.query(statement);
        await client.query(`INSERT INTO ${this.#tables.migrations} (version) VALUES ($1)`, [
          version,
        ]);
      }
      await client.query('COMMIT');
      return { ok: true, value: undefined };
    } catch (error) {
      broken = error;
      await client.query('ROLLBACK').catch(() => {});
      return pgFailure(error, 'create its tables in', undefined, this.#limits);
    } finally {
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  #loaded(
    sessionId: string,
    row: LoadRow,
    issues: readonly StoreIssue[],
  ): Result<LoadedSession, StoreError> {
    let snapshot: StoredSnapshot | null = null;
    if (
      row.snapshot_data !== null &&
      row.snapshot_version !== null &&
      row.schema_version !== null
    ) {
      const restored = loadSnapshot(
        Number(row.snapshot_version),
        row.schema_version,
        JSON.parse(row.snapshot_data) as JsonValue,
        this.#schema,
        sessionId,
      );
      if (!restored.ok) return restored;
      snapshot = restored.value;
    }
    const version = Number(row.head);
    const rows = JSON.parse(row.events) as [number, string, string, JsonValue][];
    const events: StoredEvent[] = [];
    // The rows must be exactly the events after the snapshot up to the session's version, as
    // appends write them: a row deleted, added or renumbered by hand must not pass as history.
    let expected = (snapshot?.version ?? 0) + 1;
    for (const [sequence, type, hex, data] of rows) {
      const at = Buffer.from(hex, 'hex').readDoubleBE(0);
      if (sequence !== expected || sequence > version) {
        return this.#corrupt(
          sessionId,
          sequence > version
            ? `event ${sequence} is beyond the session's version ${version}`
            : `event ${expected} is missing (the next row is event ${sequence})`,
        );
      }
      if (!Number.isFinite(at)) {
        return this.#corrupt(sessionId, `event ${sequence}'s time is ${at}, not a finite number`);
      }
      events.push({ sequence, type, at, data });
      expected++;
    }
    if (expected <= version) {
      const missing =
        expected === version ? `event ${version} is` : `events ${expected} to ${version} are`;
      return this.#corrupt(sessionId, `${missing} missing (the session's version is ${version})`);
    }
    const loaded: LoadedSession = { sessionId, version, snapshot, events, issues };
    return { ok: true, value: deepFreeze(loaded) };
  }

  #corrupt(sessionId: string, reason: string): Err<StoreError> {
    return {
      ok: false,
      error: new StoreError(
        'corrupt',
        `Session ${sessionId}'s rows in ${this.#tables.events} are damaged: ${reason}. Acknowledged events cannot be read safely; restore them from a backup.`,
        { sessionId },
      ),
    };
  }

  async #conflict(sessionId: string, expectedVersion: number): Promise<Err<StoreError>> {
    const { rows } = await this.#query<{ version: string }>(this.#sql.version, [sessionId]);
    const version = rows[0] === undefined ? 0 : Number(rows[0].version);
    return versionConflict(sessionId, version, expectedVersion);
  }
}
