/**
 * Session stores: the `SessionStore` contract (an append-only event log per session with
 * optimistic concurrency, plus its latest snapshot), `MemoryStore`, `FileStore` (the embedded
 * default, under `.plankit/`) and `attachStore`, which loads a session and persists every
 * change. `PostgresStore` lives in `@plankit/adapters/postgres`.
 *
 * @packageDocumentation
 * @module @plankit/adapters/stores
 */

export type { AttachStoreOptions, SessionAttachment } from './stores/attach-store.ts';
export {
  attachStore,
  SESSION_COMMITTED_EVENT,
  SESSION_ROLLED_BACK_EVENT,
} from './stores/attach-store.ts';
export type { FileStoreOptions } from './stores/file-store.ts';
export { FileStore } from './stores/file-store.ts';
export type { MemoryStoreOptions } from './stores/memory-store.ts';
export { MemoryStore } from './stores/memory-store.ts';
export { isSessionId } from './stores/session-id.ts';
export type {
  JsonValue,
  ListOptions,
  LoadedSession,
  LoadOptions,
  NewEvent,
  SessionStore,
  SnapshotInput,
  StoredEvent,
  StoredSnapshot,
  StoreIssue,
  StoreIssueCode,
} from './stores/session-store.ts';
export type { SnapshotMigration, SnapshotSchema } from './stores/snapshot-schema.ts';
export type { StoreErrorCode, StoreErrorOptions } from './stores/store-error.ts';
export { StoreError } from './stores/store-error.ts';
