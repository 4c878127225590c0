import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store.ts';
import type { SnapshotSchema } from './snapshot-schema.ts';
import { describeStoreContract, events, ok } from './testing/store-contract.ts';

describeStoreContract(
  'MemoryStore',
  async () => {
    const store = new MemoryStore();
    return { store, open: () => store, dispose: () => store.close() };
  },
  { sharedStorage: false },
);

describe('MemoryStore', () => {
  it('refuses unknown options and bad snapshot schemas', () => {
    expect(() => new MemoryStore({ directory: 'x' } as never)).toThrow(
      /directory is not an option/,
    );
    expect(() => new MemoryStore(null as never)).toThrow(/options must be an object/);
    for (const snapshotSchema of [{ version: 0 }, { version: 2, migrations: { 2: () => 1 } }]) {
      expect(() => new MemoryStore({ snapshotSchema: snapshotSchema as SnapshotSchema })).toThrow(
        expect.objectContaining({ code: 'argument_invalid' }),
      );
    }
  });

  it('stamps its own schema version on snapshots', async () => {
    const store = new MemoryStore({ snapshotSchema: { version: 4, migrations: { 3: (d) => d } } });
    ok(await store.append('s', 0, events(1)));
    ok(await store.saveSnapshot('s', { version: 1, data: [1] }));
    expect(ok(await store.load('s')).snapshot).toEqual({ version: 1, schemaVersion: 4, data: [1] });
  });

  it('keeps nothing a caller holds', async () => {
    const store = new MemoryStore();
    const input = events(1);
    ok(await store.append('s', 0, input));
    ((input[0] as { data: unknown }).data as { n: number }).n = 99;
    expect(ok(await store.load('s')).events[0]?.data).toMatchObject({ n: 1 });
  });
});
