/**
 * Sessions per conversation: `SessionSource` (a `Session`, or a resolver called per tool call
 * with the host's context) and `resolveSession`; `parseConversationId`, which refuses hostile
 * ids before they reach a store; and `createSessionPool`, one live session per conversation
 * loaded from and saved to any `SessionStore`, with LRU eviction and optimistic concurrency
 * across processes.
 *
 * @packageDocumentation
 * @module @plankit/adapters/sessions
 */

export type { ConversationListener } from '../host/pooled-conversations.ts';
export { isConversationId, parseConversationId } from './conversation-id.ts';
export type {
  ClosePoolOptions,
  SessionPool,
  SessionPoolStats,
} from './create-session-pool.ts';
export { createSessionPool } from './create-session-pool.ts';
export type {
  PooledAttachOptions,
  PooledSessionOptions,
  SessionPoolOptions,
} from './pool/session-pool-options.ts';
export type { SessionSource } from './resolve-session.ts';
export { resolveSession } from './resolve-session.ts';
export type {
  SessionResolveErrorCode,
  SessionResolveErrorOptions,
} from './session-resolve-error.ts';
export { SessionResolveError } from './session-resolve-error.ts';
