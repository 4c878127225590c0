import { type Result, Session } from '@plankit/core';
import { describe, expectTypeOf, it } from 'vitest';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool } from './create-session-pool.ts';
import { resolveSession, type SessionSource } from './resolve-session.ts';
import type { SessionResolveError } from './session-resolve-error.ts';

describe('session pool types', () => {
  it('gets sessions and runs functions as results', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    expectTypeOf(await pool.get('a')).toEqualTypeOf<Result<Session, SessionResolveError>>();
    expectTypeOf(await pool.run('a', async () => 42)).toEqualTypeOf<
      Result<number, SessionResolveError>
    >();
    // One error family for every entry point: a caller writes one handler.
    expectTypeOf(await pool.flush('a')).toEqualTypeOf<Result<number, SessionResolveError>>();
    expectTypeOf(await pool.evict('a')).toEqualTypeOf<Result<number, SessionResolveError>>();
    expectTypeOf(await pool.close()).toEqualTypeOf<Result<void, SessionResolveError>>();
    expectTypeOf(pool.subscribe('a', () => {})).toEqualTypeOf<
      Result<() => void, SessionResolveError>
    >();
    expectTypeOf(pool.stats().waiting).toEqualTypeOf<number>();
    // @ts-expect-error the size is read-only
    pool.size = 3;
  });

  it('makes resolvers that are session sources of the host context', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    interface Config {
      readonly configurable?: { readonly thread_id?: string };
    }
    const resolver = pool.resolver((config: Config) => config.configurable?.thread_id);
    expectTypeOf(resolver).toExtend<SessionSource<Config>>();
    expectTypeOf(
      await resolveSession(resolver, { configurable: { thread_id: 't' } }),
    ).toEqualTypeOf<Result<Session, SessionResolveError>>();
    // @ts-expect-error the context must be the resolver's
    void resolveSession(resolver, 42);
    expectTypeOf(new Session()).toExtend<SessionSource<Config>>();
    // @ts-expect-error contextToId names the conversation with a string
    pool.resolver((config: Config) => (config.configurable === undefined ? 1 : 2));
  });

  it('checks its options', () => {
    // @ts-expect-error a store is required
    createSessionPool({ max: 3 });
    // @ts-expect-error sessions get the conversation id, not one of their own
    createSessionPool({ store: new MemoryStore(), sessionOptions: { sessionId: 'x' } });
    // @ts-expect-error onError goes to the pool, not to attachStore
    createSessionPool({ store: new MemoryStore(), attach: { onError: () => {} } });
  });
});
