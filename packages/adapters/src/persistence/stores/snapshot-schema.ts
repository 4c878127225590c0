import type { Result } from '@plankit/core';
import { deepFreeze, invalidArgument } from '@plankit/core/internal-unstable';
import { toJsonText } from './json-data.ts';
import type { JsonValue, StoredSnapshot } from './session-store.ts';
import { StoreError } from './store-error.ts';

/**
 * Upgrades snapshot data by one schema version, from `n` to `n + 1`. It receives frozen
 * data: return new data rather than changing it.
 *
 * @public
 */
export type SnapshotMigration = (data: JsonValue) => unknown;

/**
 * The schema version a store stamps on the snapshots it saves, and the migrations that
 * upgrade older ones when they are loaded.
 *
 * @example
 * ```ts
 * const store = new FileStore({
 *   snapshotSchema: { version: 2, migrations: { 1: (data) => renameNotes(data) } },
 * });
 * ```
 * @public
 */
export interface SnapshotSchema {
  /** The current version, a positive integer; 1 by default. */
  readonly version: number;
  /** `migrations[n]` upgrades data from version `n` to `n + 1`. */
  readonly migrations?: Readonly<Record<number, SnapshotMigration>> | undefined;
}

/** A validated {@link SnapshotSchema}. */
export interface CheckedSnapshotSchema {
  readonly version: number;
  readonly migrations: ReadonlyMap<number, SnapshotMigration>;
}

/** Checks a store's `snapshotSchema` option; a bad one is a programmer error and throws. */
export function checkSnapshotSchema(
  where: string,
  schema: SnapshotSchema | undefined,
): CheckedSnapshotSchema {
  if (schema === undefined) return { version: 1, migrations: new Map() };
  if (typeof schema !== 'object' || schema === null) {
    throw invalidArgument(where, 'snapshotSchema', 'must be an object');
  }
  const { version, migrations = {} } = schema;
  if (!Number.isSafeInteger(version) || version < 1) {
    throw invalidArgument(where, 'snapshotSchema.version', 'must be a positive integer');
  }
  if (typeof migrations !== 'object' || migrations === null) {
    throw invalidArgument(where, 'snapshotSchema.migrations', 'must be an object');
  }
  const checked = new Map<number, SnapshotMigration>();
  for (const [key, migration] of Object.entries(migrations)) {
    const from = Number(key);
    if (!Number.isSafeInteger(from) || String(from) !== key || from < 1 || from >= version) {
      throw invalidArgument(
        where,
        `snapshotSchema.migrations[${key}]`,
        `must be keyed by a version from 1 to ${version - 1}`,
      );
    }
    if (typeof migration !== 'function') {
      throw invalidArgument(where, `snapshotSchema.migrations[${key}]`, 'must be a function');
    }
    checked.set(from, migration);
  }
  return { version, migrations: checked };
}

/**
 * Upgrades `data`, stored at schema version `from`, to the schema's version, one migration
 * at a time. The result is frozen JSON data.
 */
export function upgradeSnapshot(
  data: JsonValue,
  from: number,
  schema: CheckedSnapshotSchema,
  sessionId: string,
): Result<JsonValue, StoreError> {
  const fail = (
    code: 'migration_failed' | 'snapshot_version_unknown',
    message: string,
    cause?: unknown,
  ) => ({
    ok: false as const,
    error: new StoreError(code, message, { sessionId, field: 'snapshot.schemaVersion', cause }),
  });
  if (from > schema.version) {
    return fail(
      'snapshot_version_unknown',
      `Snapshot of session ${sessionId} has schema version ${from}, newer than this store's ${schema.version}; upgrade plankit's host before reading it.`,
    );
  }
  let current = data;
  for (let version = from; version < schema.version; version++) {
    const migration = schema.migrations.get(version);
    if (migration === undefined) {
      return fail(
        'migration_failed',
        `Snapshot of session ${sessionId} has schema version ${from} and no migration upgrades version ${version} to ${version + 1}.`,
      );
    }
    let next: unknown;
    try {
      next = migration(current);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return fail(
        'migration_failed',
        `Migration of session ${sessionId}'s snapshot from version ${version} to ${version + 1} threw: ${reason}`,
        cause,
      );
    }
    const serialized = toJsonText(next, 'data', { jsonb: true });
    if ('problem' in serialized) {
      return fail(
        'migration_failed',
        `Migration of session ${sessionId}'s snapshot from version ${version} to ${version + 1} returned data that is not JSON: ${serialized.problem.path} ${serialized.problem.rule}.`,
      );
    }
    // A copy, so the migration keeps no handle on what the store returns.
    current = deepFreeze(JSON.parse(serialized.text) as JsonValue);
  }
  return { ok: true, value: current };
}

/**
 * The snapshot a load returns: `data`, saved at schema version `schemaVersion` after event
 * `version`, upgraded to the schema's version (see {@link upgradeSnapshot}) and stamped with it.
 */
export function loadSnapshot(
  version: number,
  schemaVersion: number,
  data: JsonValue,
  schema: CheckedSnapshotSchema,
  sessionId: string,
): Result<StoredSnapshot, StoreError> {
  const upgraded = upgradeSnapshot(deepFreeze(data), schemaVersion, schema, sessionId);
  if (!upgraded.ok) return upgraded;
  return { ok: true, value: { version, schemaVersion: schema.version, data: upgraded.value } };
}
