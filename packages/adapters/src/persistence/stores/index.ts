/**
 * Session stores: the `SessionStore` contract (an append-only event log per session with
 * optimistic concurrency, plus its latest snapshot), `MemoryStore`, `FileStore` (the embedded
 * default, under `.plankit/`) and `attachStore`, which loads a session and persists every
 * change. `PostgresStore` lives in `@plankit/adapters/postgres`.
 *
 * @packageDocumentation
 * @module @plankit/adapters/stores
 */

export type { AttachStoreOptions } from './attach-store.ts';
export { attachStore } from './attach-store.ts';
export type { FileStoreOptions } from './file-store.ts';
export { FileStore } from './file-store.ts';
export type { MemoryStoreOptions } from './memory-store.ts';
export { MemoryStore } from './memory-store.ts';
export { SESSION_COMMITTED_EVENT, SESSION_ROLLED_BACK_EVENT } from './replay-rules.ts';
export type { SessionAttachment } from './session-attachment.ts';
export type {
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
  StoreIssueCode,
} from './session-store.ts';
export type { SnapshotMigration, SnapshotSchema } from './snapshot-schema.ts';
export type { StoreErrorCode, StoreErrorOptions } from './store-error.ts';
export { StoreError } from './store-error.ts';
