/** The quoted, schema-qualified names of the store's tables. */
export interface TableNames {
  readonly schema: string;
  readonly sessions: string;
  readonly events: string;
  readonly snapshots: string;
  readonly migrations: string;
}

// Both parts are checked against /^[a-z_][a-z0-9_]*$/ before they get here; quoting keeps
// them exact anyway.
const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/** The table names for a schema and a prefix. */
export function tableNames(schema: string, prefix: string): TableNames {
  const table = (name: string) => `${quote(schema)}.${quote(`${prefix}${name}`)}`;
  return {
    schema: quote(schema),
    sessions: table('sessions'),
    events: table('events'),
    snapshots: table('snapshots'),
    migrations: table('migrations'),
  };
}

/**
 * The schema steps, in order; step `n` (from 1) is recorded in the migrations table once run.
 * Steps are only ever appended: a released step never changes.
 */
export function migrationSteps({
  sessions,
  events,
  snapshots,
}: TableNames): readonly (readonly string[])[] {
  return [
    [
      // The C collation orders ids by byte, as every store lists them.
      `CREATE TABLE IF NOT EXISTS ${sessions} (
         session_id text COLLATE "C" PRIMARY KEY,
         version bigint NOT NULL CHECK (version > 0),
         updated_at timestamptz NOT NULL DEFAULT now())`,
      // json, not jsonb: events come back byte for byte, U+0000 included.
      `CREATE TABLE IF NOT EXISTS ${events} (
         session_id text COLLATE "C" NOT NULL REFERENCES ${sessions} (session_id) ON DELETE CASCADE,
         seq bigint NOT NULL CHECK (seq > 0),
         type text NOT NULL,
         at double precision NOT NULL,
         data json NOT NULL,
         PRIMARY KEY (session_id, seq))`,
      `CREATE TABLE IF NOT EXISTS ${snapshots} (
         session_id text COLLATE "C" PRIMARY KEY REFERENCES ${sessions} (session_id) ON DELETE CASCADE,
         version bigint NOT NULL CHECK (version > 0),
         schema_version integer NOT NULL CHECK (schema_version > 0),
         data jsonb NOT NULL,
         saved_at timestamptz NOT NULL DEFAULT now())`,
    ],
  ];
}
