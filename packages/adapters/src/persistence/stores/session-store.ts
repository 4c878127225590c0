import type { Result } from '@plankit/core';
import type { StoreError } from './store-error.ts';

/**
 * JSON data as stores return it: what `JSON.parse` produces.
 *
 * @public
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/**
 * An event to append. Stores never read a clock: the caller says when.
 *
 * @public
 */
export interface NewEvent {
  /** What happened: 1-128 characters `[A-Za-z0-9_.:-]`, starting with a letter. */
  readonly type: string;
  /** When, in epoch milliseconds; any finite number. */
  readonly at: number;
  /** The payload: JSON data (properties holding `undefined` are dropped, as in JSON). */
  readonly data: unknown;
}

/** An event as stored: numbered from 1 without gaps. @public */
export interface StoredEvent {
  /** Its position in the session's log, from 1. */
  readonly sequence: number;
  /** What happened. */
  readonly type: string;
  /** When, in epoch milliseconds. */
  readonly at: number;
  /** The payload, deeply frozen. */
  readonly data: JsonValue;
}

/** A snapshot to save. @public */
export interface SnapshotInput {
  /** The sequence of the last event the snapshot includes; at most the session's version. */
  readonly version: number;
  /** The state after that event, as JSON data. */
  readonly data: unknown;
}

/** A snapshot as loaded, already upgraded to the store's schema version. @public */
export interface StoredSnapshot {
  /** The sequence of the last event the snapshot includes. */
  readonly version: number;
  /** The store's snapshot schema version the data now follows. */
  readonly schemaVersion: number;
  /** The state after event `version`, deeply frozen. */
  readonly data: JsonValue;
}

/**
 * Codes of {@link StoreIssue}: what a load survived.
 *
 * @public
 */
export type StoreIssueCode = 'torn_tail' | 'snapshot_corrupt' | 'snapshot_ignored';

/** Something a load survived and reports instead of failing. @public */
export interface StoreIssue {
  /** The stable reason. */
  readonly code: StoreIssueCode;
  /** What was ignored and why. */
  readonly message: string;
}

/** A session as loaded: its latest snapshot and the events after it. @public */
export interface LoadedSession {
  /** The session's id. */
  readonly sessionId: string;
  /** The sequence of the session's last event. */
  readonly version: number;
  /** The stored snapshot, or `null` when there is none (or it was ignored). */
  readonly snapshot: StoredSnapshot | null;
  /** Every event after the snapshot (after 0 without one), in order. */
  readonly events: readonly StoredEvent[];
  /** What was survived while reading; empty normally. */
  readonly issues: readonly StoreIssue[];
}

/** Options of {@link SessionStore.load}. @public */
export interface LoadOptions {
  /** `false` ignores the stored snapshot and returns every event from 1. Default `true`. */
  readonly snapshot?: boolean | undefined;
}

/** Options of {@link SessionStore.list}. @public */
export interface ListOptions {
  /** Only ids after this one, in the listing's order. */
  readonly after?: string | undefined;
  /** At most this many ids (a positive integer); all by default. */
  readonly limit?: number | undefined;
}

/** A commit a store's watch heard: its session and the version it reached. @public */
export interface StoreCommit {
  /** The session that changed. */
  readonly sessionId: string;
  /** Its version after the commit. */
  readonly version: number;
}

/** Ends a store's watch and gives its connection back. Idempotent. @public */
export type StopWatching = () => Promise<void>;

/**
 * Where sessions are kept: an append-only event log per session, with optimistic
 * concurrency, plus its latest snapshot. Implemented by {@link MemoryStore},
 * {@link FileStore} and `PostgresStore` (`@plankit/adapters/postgres`).
 *
 * Every method resolves to a `Result`: expected failures (a stale writer's `conflict`, an
 * unknown session, an unreachable server) are values, and a failed call changes nothing. The
 * promise rejects only on a programmer error (`PlankitError` `argument_invalid`).
 *
 * @public
 */
export interface SessionStore {
  /**
   * Reads a session: its snapshot (upgraded to the store's schema version) and the events
   * after it.
   *
   * @returns the session, or `not_found`, `session_id_invalid`, `corrupt`,
   *   `snapshot_version_unknown`, `migration_failed`, ...
   */
  load(sessionId: string, options?: LoadOptions): Promise<Result<LoadedSession, StoreError>>;

  /**
   * Appends `events` atomically as sequences `expectedVersion + 1...`, if and only if the
   * session's version is `expectedVersion` (0: the session does not exist yet).
   *
   * @returns the new version, or `conflict` (nothing written), `event_invalid`, ...
   */
  append(
    sessionId: string,
    expectedVersion: number,
    events: readonly NewEvent[],
  ): Promise<Result<number, StoreError>>;

  /**
   * Saves a snapshot stamped with the store's schema version, unless the store already holds
   * one of a later version.
   *
   * @returns `true` when saved, `false` when a later snapshot was kept; or `not_found`,
   *   `conflict` (version above the session's), `snapshot_invalid`, ...
   */
  saveSnapshot(sessionId: string, snapshot: SnapshotInput): Promise<Result<boolean, StoreError>>;

  /**
   * The ids of the stored sessions, exactly as given, in ascending code-point order (the byte
   * order of their UTF-8, PostgreSQL's `C` collation).
   *
   * @returns the ids, or `io` / `unreachable`
   */
  list(options?: ListOptions): Promise<Result<readonly string[], StoreError>>;

  /**
   * Removes a session's events and snapshot.
   *
   * @returns `true` when the session existed
   */
  delete(sessionId: string): Promise<Result<boolean, StoreError>>;

  /**
   * Optional: hears every commit made to the store by any process (`PostgresStore` has it,
   * through `LISTEN/NOTIFY`). A session pool uses it to refresh the conversations its
   * subscribers follow when another worker changes them.
   *
   * @returns a function that stops the watch; or why it cannot watch (`unreachable`, `closed`)
   */
  watch?(
    listener: (commit: StoreCommit) => void,
    onEnd?: (error: StoreError) => void,
  ): Promise<Result<StopWatching, StoreError>>;

  /** Waits for calls in flight, then releases the store's resources; later calls fail `closed`. */
  close(): Promise<void>;
}
