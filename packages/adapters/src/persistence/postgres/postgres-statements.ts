import { createHash } from 'node:crypto';
import type { TableNames } from './postgres-schema.ts';

/** A statement of the store; `name` is set when it is sent as a named prepared statement. */
export interface Statement {
  readonly text: string;
  readonly name: string | undefined;
}

/** The store's statements for its tables. */
export interface Statements {
  readonly load: Statement;
  /** Append one event (scalar parameters) or many (arrays), creating or moving the session. */
  readonly createOne: Statement;
  readonly createMany: Statement;
  readonly moveOne: Statement;
  readonly moveMany: Statement;
  readonly version: Statement;
  readonly saveSnapshot: Statement;
  readonly list: Statement;
  readonly delete: Statement;
}

/**
 * The store's statements on `tables`, each named (so sent as a prepared statement) when
 * `prepared` is true. Appends publish their commit on `channel` (a checked identifier).
 */
export function statements(
  { sessions, events, snapshots }: TableNames,
  prepared: boolean,
  channel: string,
): Statements {
  // The name derives from the text, so stores on other tables sharing a pool never collide,
  // and a changed statement is never confused with one an older version prepared.
  const statement = (text: string): Statement => ({
    text,
    name: prepared
      ? `plankit_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`
      : undefined,
  });
  // Moving the session row from the expected version is the test-and-set: a stale writer
  // moves nothing and so inserts nothing. The (session_id, seq) key is the backstop.
  const create = `INSERT INTO ${sessions} (session_id, version) VALUES ($1, $3)
    ON CONFLICT (session_id) DO NOTHING RETURNING session_id`;
  const move = `UPDATE ${sessions} SET version = $3, updated_at = now()
    WHERE session_id = $1 AND version = $2 RETURNING session_id`;
  // The commit's notice (session id and version, never the data), in the same statement: it
  // costs no round trip, PostgreSQL sends it when the append commits and never when it fails,
  // and it is read in the insert's FROM, since a CTE nobody reads is never run.
  const notice = `notice AS (SELECT pg_notify('${channel}', json_build_object('s', head.session_id, 'v', $3::bigint)::text) FROM head)`;
  // One event, the common case, travels as plain parameters: no array literal to build on
  // this side and no unnest on the server.
  const one = (head: string) =>
    statement(`WITH head AS (${head}), ${notice}
      INSERT INTO ${events} (session_id, seq, type, at, data)
      SELECT head.session_id, $3::bigint, $4::text, $5::float8, $6::json
        FROM head, notice WHERE $2::bigint >= 0`); // $2 typed here too: the create head does not use it
  const many = (head: string) =>
    statement(`WITH head AS (${head}), ${notice}
      INSERT INTO ${events} (session_id, seq, type, at, data)
      SELECT head.session_id, $2::bigint + e.n, e.type, e.at, e.data
        FROM head, notice, unnest($4::text[], $5::float8[], $6::json[]) WITH ORDINALITY AS e(type, at, data, n)`);
  return {
    // One statement, so it reads one consistent state; the events after the snapshot come
    // from a range scan of the (session_id, seq) key, so the cost is the tail's, not the
    // history's. Event times travel as the 8 bytes of the float8 (hex): its text form depends
    // on extra_float_digits, which rounds to 15 digits when 0 (and on servers before 12), so
    // `at` would not come back exactly.
    load: statement(`SELECT s.version AS head,
        sn.version AS snapshot_version, sn.schema_version, sn.data::text AS snapshot_data,
        (SELECT coalesce(json_agg(json_build_array(e.seq, e.type, encode(float8send(e.at), 'hex'), e.data) ORDER BY e.seq), '[]')::text
           FROM ${events} e
          WHERE e.session_id = s.session_id AND e.seq > coalesce(sn.version, 0)) AS events
      FROM ${sessions} s
      LEFT JOIN ${snapshots} sn ON $2 AND sn.session_id = s.session_id
      WHERE s.session_id = $1`),
    createOne: one(create),
    createMany: many(create),
    moveOne: one(move),
    moveMany: many(move),
    version: statement(`SELECT version FROM ${sessions} WHERE session_id = $1`),
    saveSnapshot: statement(`WITH s AS (SELECT version FROM ${sessions} WHERE session_id = $1),
      saved AS (
        INSERT INTO ${snapshots} AS stored (session_id, version, schema_version, data)
        SELECT $1, $2, $3, $4::jsonb FROM s WHERE s.version >= $2
        ON CONFLICT (session_id) DO UPDATE
          SET version = EXCLUDED.version, schema_version = EXCLUDED.schema_version,
              data = EXCLUDED.data, saved_at = now()
          -- A snapshot ahead of the session (only an edit by hand makes one) is replaced.
          WHERE stored.version <= EXCLUDED.version OR stored.version > (SELECT version FROM s)
        RETURNING 1)
      SELECT (SELECT version FROM s) AS head, (SELECT count(*) FROM saved) AS saved`),
    list: statement(`SELECT session_id FROM ${sessions}
       WHERE $1::text IS NULL OR session_id > $1::text
       ORDER BY session_id LIMIT $2`),
    // Events and the snapshot go with the session row (ON DELETE CASCADE).
    delete: statement(`DELETE FROM ${sessions} WHERE session_id = $1`),
  };
}
