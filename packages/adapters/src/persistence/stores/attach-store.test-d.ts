import type { Result } from '@plankit/core';
import { Session } from '@plankit/core';
import { describe, expectTypeOf, it } from 'vitest';
import { attachStore } from './attach-store.ts';
import { MemoryStore } from './memory-store.ts';
import type { SessionAttachment } from './session-attachment.ts';
import type { StoreError } from './store-error.ts';

describe('attachStore types', () => {
  it('resolves to an attachment or a StoreError', async () => {
    const attached = await attachStore(new Session(), new MemoryStore());
    expectTypeOf(attached).toEqualTypeOf<Result<SessionAttachment, StoreError>>();
    if (attached.ok) {
      expectTypeOf(attached.value.flush()).resolves.toEqualTypeOf<Result<number, StoreError>>();
      expectTypeOf(attached.value.failure).toEqualTypeOf<StoreError | undefined>();
      // @ts-expect-error the acknowledged version is read-only
      attached.value.version = 3;
    }
  });

  it('checks its options', () => {
    // @ts-expect-error onError receives a StoreError
    void attachStore(new Session(), new MemoryStore(), { onError: (error: number) => error });
    // @ts-expect-error dataTypes are zod data types
    void attachStore(new Session(), new MemoryStore(), { dataTypes: ['app.Note'] });
  });
});
