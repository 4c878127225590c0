import { clipText, escapeControl, refusalText } from '@plankit/core/internal-unstable';
import type { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { ACPSessionError } from './acp-session-error.ts';

/**
 * A JSON-RPC error object as ACP sends it (the SDK's `Error` schema type): build the SDK's
 * `RequestError` from it and throw that from a request handler.
 *
 * @public
 */
export interface ACPError {
  /** The JSON-RPC error code: `-32002` (Resource not found), `-32602` or `-32603`. */
  readonly code: number;
  /** One line for people, under 2,000 characters. */
  readonly message: string;
  /** For `-32002`, `{ sessionId }`: the session id the request named, as ACP specifies. */
  readonly data?: { readonly sessionId: string } | undefined;
}

// The longest session id a pool accepts: any id that could name a session comes back whole.
const DATA_ID = 256;

/**
 * The JSON-RPC error an ACP agent answers a refused session request with, as ACP says:
 * `session_not_found` (`checkSession`, `sendPlan`) becomes `-32002`
 * (Resource not found) with the session id in `data.sessionId`; a session id the pool refuses
 * (`conversation_id_invalid`, `session_unresolved`) becomes `-32602` (Invalid params); any other
 * pool failure (the store failed, the pool is full or closed) `-32603` (Internal error). The
 * message is plankit's, escaped and under 2,000 characters. The entry loads no SDK code, so
 * the agent builds the SDK's error from it.
 *
 * @example
 * ```ts
 * .onRequest('session/prompt', async ({ client, params }) => {
 *   const open = bridge.checkSession(params.sessionId);
 *   if (!open.ok) {
 *     const { code, message, data } = toACPError(open.error);
 *     throw new RequestError(code, message, data);
 *   }
 *   // ... run the turn
 * })
 * ```
 * @param error - what the bridge refused
 * @returns the error's `code`, `message` and `data`
 * @public
 */
export function toACPError(error: ACPSessionError | SessionResolveError): ACPError {
  if (ACPSessionError.isInstance(error))
    return Object.freeze({
      code: -32002,
      message: refusalText(`Resource not found: ${error.message}`),
      data: Object.freeze({ sessionId: clipText(error.sessionId, DATA_ID) }),
    });
  const invalid = error.code === 'conversation_id_invalid' || error.code === 'session_unresolved';
  return Object.freeze({
    code: invalid ? -32602 : -32603,
    message: refusalText(
      `${invalid ? 'Invalid params' : 'Internal error'}: ${escapeControl(error.message)}`,
    ),
  });
}
