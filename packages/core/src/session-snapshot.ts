/**
 * A session's whole state at one revision: deeply frozen, cheap to take and to keep.
 * Consecutive snapshots share every slice (and every item) that did not change.
 *
 * @public
 */
export interface SessionSnapshot {
  /** The session the snapshot was taken from. */
  readonly sessionId: string;
  /** Counts committed changes; only grows. */
  readonly revision: number;
  /** Slice values by data type name; a slice never written to is absent. */
  readonly slices: Readonly<Record<string, readonly unknown[]>>;
}
