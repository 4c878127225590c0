import { PlankitError, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { resolveSession, type SessionSource } from './resolve-session.ts';
import { SessionResolveError } from './session-resolve-error.ts';

interface Context {
  readonly threadId?: string;
}

async function refusal(source: SessionSource<Context>, context: Context = {}) {
  const resolved = await resolveSession(source, context);
  if (resolved.ok) throw new Error('expected a refusal');
  expect(SessionResolveError.isInstance(resolved.error)).toBe(true);
  expect(resolved.error.message.length).toBeLessThan(2000);
  return resolved.error;
}

describe('resolveSession', () => {
  it('returns a Session source itself, whatever the context', async () => {
    const session = new Session();
    expect(await resolveSession(session, { threadId: 'a' })).toEqual({ ok: true, value: session });
  });

  it('calls a resolver with the context, sync or async', async () => {
    const sessions = new Map([['a', new Session({ sessionId: 'a' })]]);
    const sync = (context: Context) => sessions.get(context.threadId ?? '') as Session;
    const async = async (context: Context) => sync(context);
    expect(await resolveSession(sync, { threadId: 'a' })).toEqual({
      ok: true,
      value: sessions.get('a'),
    });
    expect(await resolveSession(async, { threadId: 'a' })).toEqual({
      ok: true,
      value: sessions.get('a'),
    });
  });

  it('refuses with session_unresolved when the resolver returns no Session', async () => {
    for (const returned of [undefined, null, 'a', {}, Promise.resolve(undefined)]) {
      const error = await refusal(() => returned as unknown as Session);
      expect(error.code).toBe('session_unresolved');
      expect(error.message).toMatch(/not a Session/);
    }
  });

  it('refuses with session_unresolved when the resolver throws or rejects, clipping the reason', async () => {
    const thrown = await refusal(() => {
      throw new Error('no thread_id in config.configurable');
    });
    expect(thrown.code).toBe('session_unresolved');
    expect(thrown.message).toContain('no thread_id in config.configurable');
    expect(thrown.cause).toBeInstanceOf(Error);
    const rejected = await refusal(async () => {
      throw new Error('x'.repeat(1_000_000));
    });
    expect(rejected.code).toBe('session_unresolved');
    expect(rejected.message.length).toBeLessThan(300);
    const odd = await refusal(() => {
      throw Object.create(null);
    });
    expect(odd.code).toBe('session_unresolved');
  });

  it('refuses with session_unresolved when what the resolver returns throws as it is read', async () => {
    // Defined, not written as a literal: a thenable whose `then` cannot be read.
    const thenGetter = Object.defineProperty({}, 'then', {
      get() {
        throw new Error('then getter');
      },
    });
    const trap = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('prototype trap');
        },
      },
    );
    for (const [returned, reason] of [
      [thenGetter, 'then getter'],
      [trap, 'prototype trap'],
    ] as const) {
      const error = await refusal(() => returned as unknown as Session);
      expect(error.code).toBe('session_unresolved');
      expect(error.message).toContain(reason);
    }
  });

  it('clips a long reason without splitting a surrogate pair', async () => {
    const error = await refusal(() => {
      throw new Error(`${'x'.repeat(196)}\u{1F600} and more`);
    });
    expect(error.code).toBe('session_unresolved');
    expect(error.message).toMatch(/x\.\.\.$/);
    expect(error.message).not.toMatch(/\p{Cs}/u);
  });

  it('passes a SessionResolveError the resolver throws through unchanged', async () => {
    const mine = new SessionResolveError('conversation_id_invalid', 'thread_id is bad.');
    expect(
      await refusal(() => {
        throw mine;
      }),
    ).toBe(mine);
    expect(await refusal(() => Promise.reject(mine))).toBe(mine);
  });

  it('throws argument_invalid for a source that is neither a Session nor a function', async () => {
    for (const source of [undefined, null, 'a', {}, 1]) {
      const outcome = resolveSession(source as unknown as SessionSource<Context>, {});
      await expect(outcome).rejects.toSatisfy(
        (error: unknown) => PlankitError.isInstance(error) && error.code === 'argument_invalid',
      );
    }
  });
});
