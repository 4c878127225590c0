import type { Result } from '@plankit/core';
import { describe, expectTypeOf, it } from 'vitest';
import { PostgresStore } from '../postgres/postgres-store.ts';
import { FileStore } from './file-store.ts';
import { MemoryStore } from './memory-store.ts';
import type { JsonValue, LoadedSession, SessionStore, StoredEvent } from './session-store.ts';
import type { SnapshotSchema } from './snapshot-schema.ts';
import { StoreError, type StoreErrorCode } from './store-error.ts';

describe('SessionStore types', () => {
  it('is implemented by the three stores', () => {
    expectTypeOf(new MemoryStore()).toExtend<SessionStore>();
    expectTypeOf(new FileStore()).toExtend<SessionStore>();
    expectTypeOf(new PostgresStore()).toExtend<SessionStore>();
  });

  it('returns results whose errors narrow to StoreError codes', async () => {
    const store: SessionStore = new MemoryStore();
    const loaded = await store.load('s');
    expectTypeOf(loaded).toEqualTypeOf<Result<LoadedSession, StoreError>>();
    if (!loaded.ok) {
      expectTypeOf(loaded.error.code).toEqualTypeOf<StoreErrorCode>();
      expectTypeOf(loaded.error.sessionId).toEqualTypeOf<string | undefined>();
    } else {
      expectTypeOf(loaded.value.events).toEqualTypeOf<readonly StoredEvent[]>();
      expectTypeOf(loaded.value.events[0]?.data).toEqualTypeOf<JsonValue | undefined>();
    }
    expectTypeOf(store.append('s', 0, [])).resolves.toEqualTypeOf<Result<number, StoreError>>();
    expectTypeOf(store.saveSnapshot('s', { version: 1, data: {} })).resolves.toEqualTypeOf<
      Result<boolean, StoreError>
    >();
    expectTypeOf(store.list()).resolves.toEqualTypeOf<Result<readonly string[], StoreError>>();
  });

  it('returns read-only data', async () => {
    const loaded = await new MemoryStore().load('s');
    if (loaded.ok) {
      // @ts-expect-error loaded sessions are read-only
      loaded.value.version = 2;
      // @ts-expect-error events cannot be pushed to
      loaded.value.events.push(loaded.value.events[0]);
    }
  });

  it('checks the shapes of events, snapshots and options', () => {
    const store = new MemoryStore();
    // @ts-expect-error an event needs a time
    void store.append('s', 0, [{ type: 'x', data: 1 }]);
    // @ts-expect-error the expected version is a number
    void store.append('s', '0', [{ type: 'x', at: 1, data: 1 }]);
    // @ts-expect-error a snapshot needs the version it describes
    void store.saveSnapshot('s', { data: 1 });
    // @ts-expect-error not an option
    void store.list({ prefix: 'a' });
    expectTypeOf<SnapshotSchema['migrations']>().toEqualTypeOf<
      Readonly<Record<number, (data: JsonValue) => unknown>> | undefined
    >();
    // @ts-expect-error FileStore has no connection string
    new FileStore({ connectionString: 'x' });
  });

  it('narrows with isInstance', () => {
    const value: unknown = new StoreError('conflict', 'x');
    if (StoreError.isInstance(value)) expectTypeOf(value.code).toEqualTypeOf<StoreErrorCode>();
  });
});
