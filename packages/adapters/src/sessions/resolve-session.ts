import { type Result, Session } from '@plankit/core';
import { invalidArgument } from '@plankit/core/internal-unstable';
import { reasonOf, SessionResolveError } from './session-resolve-error.ts';

/**
 * Where a tool call's session comes from: one `Session` for every call (one conversation), or
 * a resolver called once per call with the host's context (`C`: the host's context type),
 * returning the session of the call's conversation.
 *
 * (`@plankit/core`'s selectors read a `SessionOrSnapshot`; its old name there, `SessionSource`,
 * is a deprecated alias.)
 *
 * @public
 */
export type SessionSource<C> = Session | ((context: C) => Session | Promise<Session>);

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

function unresolved(cause: unknown): Result<never, SessionResolveError> {
  if (SessionResolveError.isInstance(cause)) return { ok: false, error: cause };
  return {
    ok: false,
    error: new SessionResolveError(
      'session_unresolved',
      `The session resolver failed: ${reasonOf(cause)}`,
      { cause },
    ),
  };
}

function checked(value: unknown): Result<Session, SessionResolveError> {
  if (value instanceof Session) return { ok: true, value };
  const got = value === null ? 'null' : typeof value;
  return {
    ok: false,
    error: new SessionResolveError(
      'session_unresolved',
      `The session resolver returned ${got}, not a Session: no session serves this call.`,
    ),
  };
}

/**
 * The session of one call: `source` itself, or what the resolver returns for `context`.
 * Never falls back to a shared session.
 *
 * @example
 * ```ts
 * const session = await resolveSession(pool.resolver((ctx: { threadId?: string }) => ctx.threadId), ctx);
 * if (!session.ok) return session.error.message; // session_unresolved, conversation_id_invalid, ...
 * ```
 * @param source - a `Session`, or a resolver
 * @param context - the host's context of the call, passed to the resolver
 * @returns the session; or `session_unresolved` when the resolver throws, rejects or returns
 *   something other than a `Session`; or the `SessionResolveError` the resolver threw
 * @throws PlankitError `argument_invalid` when `source` is neither a Session nor a function
 * @public
 */
export async function resolveSession<C>(
  source: SessionSource<C>,
  context: C,
): Promise<Result<Session, SessionResolveError>> {
  if (source instanceof Session) return { ok: true, value: source };
  if (typeof source !== 'function') {
    throw invalidArgument('resolveSession', 'source', 'must be a Session or a resolver function');
  }
  let returned: unknown;
  try {
    returned = source(context);
    // Reading what came back can throw too: a `then` getter, a proxy's trap.
    if (!isThenable(returned)) return checked(returned);
  } catch (cause) {
    return unresolved(cause);
  }
  try {
    return checked(await returned);
  } catch (cause) {
    return unresolved(cause);
  }
}
