import type { SessionSnapshot } from './session-snapshot.ts';

/** The format version `snapshotToJSON` writes and `snapshotFromJSON` reads. @public */
export const SNAPSHOT_VERSION = 1;

/**
 * The JSON form of a {@link SessionSnapshot}: plain data, safe for `JSON.stringify`, a file or
 * a JSONB column.
 *
 * @public
 */
export interface SessionSnapshotJSON {
  /** Always `plankit.session-snapshot`. */
  readonly format: 'plankit.session-snapshot';
  /** The format version, {@link SNAPSHOT_VERSION}. */
  readonly version: number;
  /** The session the snapshot was taken from. */
  readonly sessionId: string;
  /** The session's revision at the time. */
  readonly revision: number;
  /** Slice values by data type name. */
  readonly slices: Readonly<Record<string, readonly unknown[]>>;
}

/**
 * Converts a snapshot to its versioned JSON form. Slice values must be JSON data (plankit's
 * own always are).
 *
 * @public
 */
export function snapshotToJSON(snapshot: SessionSnapshot): SessionSnapshotJSON {
  return {
    format: 'plankit.session-snapshot',
    version: SNAPSHOT_VERSION,
    sessionId: snapshot.sessionId,
    revision: snapshot.revision,
    slices: snapshot.slices,
  };
}
