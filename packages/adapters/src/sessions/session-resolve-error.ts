import { PlankitError, type PlankitErrorOptions } from '@plankit/core';
import { clipText } from '@plankit/core/internal-unstable';
import type { StoreError } from '../persistence/stores/store-error.ts';

/**
 * Codes of {@link SessionResolveError}. The set is stable: codes are added, never renamed.
 *
 * - `session_unresolved`: the call names no conversation, or the resolver failed.
 * - `conversation_id_invalid`: the conversation id breaks the id rule; no store was called.
 * - `session_load_failed`: the store could not load the conversation.
 * - `session_conflict`: another process changed the conversation, and the retries ran out.
 * - `session_store_failed`: the store failed while saving (`unreachable`, `io`, `busy`, ...).
 * - `pool_closed`: the pool is closed.
 * - `pool_full`: every live session of the pool stayed held, and the request waited too long
 *   for a slot, or too many requests were waiting already.
 * - `pool_close_timed_out`: `close` stopped waiting at its time limit; `abandoned` names the
 *   conversations whose loads, runs or flushes were not finished.
 *
 * @public
 */
export type SessionResolveErrorCode =
  | 'session_unresolved'
  | 'conversation_id_invalid'
  | 'session_load_failed'
  | 'session_conflict'
  | 'session_store_failed'
  | 'pool_closed'
  | 'pool_full'
  | 'pool_close_timed_out';

const NONE_ABANDONED: readonly string[] = Object.freeze([]);

/** Options of {@link SessionResolveError}. @public */
export interface SessionResolveErrorOptions extends PlankitErrorOptions {
  /** The conversation the call was about, when it had a valid id. */
  readonly conversationId?: string | undefined;
  /** The store's error behind a store failure. */
  readonly storeError?: StoreError | undefined;
  /** The conversations a timed-out `close` abandoned, sorted. */
  readonly abandoned?: readonly string[] | undefined;
}

/**
 * The session of a call could not be resolved: the call names no conversation, its id is
 * refused, or the store could not load or save it. Returned as a `Result`, never thrown, except
 * by a pool's resolver, whose failures `resolveSession` turns back into a result.
 *
 * @public
 */
export class SessionResolveError extends PlankitError<SessionResolveErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'SessionResolveError';

  /** The conversation the call was about, when it had a valid id. */
  readonly conversationId: string | undefined;
  /** The store's error behind a store failure; also the `cause`. */
  readonly storeError: StoreError | undefined;
  /** The conversations a timed-out `close` abandoned (`pool_close_timed_out`), sorted; else empty. */
  readonly abandoned: readonly string[];

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - what was missing or failed, naming the field and the rule
   * @param options - the field, the conversation, the store's error and the cause
   */
  constructor(
    code: SessionResolveErrorCode,
    message: string,
    options: SessionResolveErrorOptions = {},
  ) {
    super(code, message, {
      field: options.field,
      cause: options.cause ?? options.storeError,
    });
    this.conversationId = options.conversationId;
    this.storeError = options.storeError;
    this.abandoned =
      options.abandoned === undefined ? NONE_ABANDONED : Object.freeze([...options.abandoned]);
  }

  /** True for a {@link SessionResolveError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is SessionResolveError {
    return PlankitError.hasBrand(value, SessionResolveError.errorName);
  }
}

const MAX_REASON = 200;

/** A foreign error's message, clipped: the refusal text reaches a model. */
export function reasonOf(cause: unknown): string {
  let text: string;
  try {
    text = cause instanceof Error ? cause.message : String(cause);
  } catch {
    text = typeof cause;
  }
  // Never splits a surrogate pair: a lone surrogate in the text a model reads can make the
  // model's API refuse the whole request.
  return clipText(text, MAX_REASON);
}
