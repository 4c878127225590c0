import type { PlankitError, Result } from '@plankit/core';
import * as fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewEvent, SessionStore, StoredEvent, StoredSnapshot } from '../session-store.ts';
import type { SnapshotSchema } from '../snapshot-schema.ts';
import type { StoreError, StoreErrorCode } from '../store-error.ts';
import { anySessionId, HOST_IDS } from './host-ids.ts';

/** What the contract suite needs from a store under test. */
export interface StoreHarness {
  /** A store on fresh, empty storage. */
  readonly store: SessionStore;
  /**
   * Another store on the same storage, with its own snapshot schema when one is given; the
   * same store again when instances cannot share storage (see `sharedStorage`).
   */
  readonly open: (snapshotSchema?: SnapshotSchema) => SessionStore;
  /** Closes every store opened and removes the storage. */
  readonly dispose: () => Promise<void>;
}

/** Unwraps a successful result, failing the test with the error otherwise. */
export function ok<T>(result: Result<T, PlankitError<string>>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Unwraps a failed result with `code`, failing the test otherwise. */
export function err(result: Result<unknown, StoreError>, code: StoreErrorCode): StoreError {
  if (result.ok) throw new Error(`expected ${code}, got ok: ${JSON.stringify(result.value)}`);
  expect(result.error.code, result.error.message).toBe(code);
  expect(result.error.name).toBe('StoreError');
  return result.error;
}

/** `n` events numbered from `from`, with a payload that makes each one distinct. */
export function events(n: number, from = 1, type = 'test.Event'): NewEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    type,
    at: 1_700_000_000_000 + from + i,
    data: { n: from + i, text: `event ${from + i}`, nested: { list: [from + i, null, true] } },
  }));
}

/** Session ids every store must accept: the old rule's, and every kind a host generates. */
export const VALID_IDS: readonly string[] = [
  'a',
  'Z',
  '7',
  'job-42',
  'user_7:goal_3',
  'tenant.job-1',
  '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  'Job-42',
  'job-42x',
  'a'.repeat(128),
  'A'.repeat(128),
  `${'Ab'.repeat(63)}AB`,
  ...HOST_IDS.filter((id) => id !== '01ARZ3NDEKTSV4RRFFQ69G5FAV' && id !== '__proto__'),
];

/** Session ids every store must refuse with `session_id_invalid`. */
export const HOSTILE_IDS: readonly unknown[] = [
  '',
  '../etc',
  '..',
  '.',
  '../../../../tmp/x',
  'a/../b',
  'a/..',
  'a\\..\\b',
  './x',
  'a\0b',
  '\0',
  'x'.repeat(10 * 1024),
  'a'.repeat(257),
  '😀'.repeat(129),
  'a\nb',
  'a\rb',
  'a\tb',
  'a\u007fb',
  'a\u0085b',
  'a\u2028b',
  '\ud800',
  'a\udc00',
  42,
  null,
  undefined,
  {},
];

/**
 * Sorts ids by code point (the byte order of their UTF-8, PostgreSQL's `C` collation), the
 * order every store lists in; written apart from the stores' own comparison.
 */
export function byCodePoint(ids: readonly string[]): string[] {
  const key = (id: string): number[] => Array.from(id, (c) => c.codePointAt(0) as number);
  return [...ids].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    }
    return x.length - y.length;
  });
}

const HOSTILE_VALID = new Set(['lock', 'constructor', '__proto__', 'session-id', 'sessions']);

/**
 * A harness whose stores `openStore` makes on one storage: `store` is the first, and `dispose`
 * closes every store opened, then `removeStorage`.
 */
export function storeHarness<S extends SessionStore & { close(): Promise<unknown> }>(
  openStore: (snapshotSchema?: SnapshotSchema) => S,
  removeStorage: () => Promise<void>,
): StoreHarness {
  const stores: S[] = [];
  const open = (snapshotSchema?: SnapshotSchema) => {
    const store = openStore(snapshotSchema);
    stores.push(store);
    return store;
  };
  return {
    store: open(),
    open,
    dispose: async () => {
      for (const store of stores) await store.close();
      await removeStorage();
    },
  };
}

/** The same behaviour, checked against every store. */
export function describeStoreContract(
  name: string,
  make: () => Promise<StoreHarness>,
  { sharedStorage }: { readonly sharedStorage: boolean },
): void {
  describe(`${name}: the SessionStore contract`, () => {
    let harness: StoreHarness;
    let store: SessionStore;

    beforeEach(async () => {
      harness = await make();
      store = harness.store;
    });

    afterEach(async () => {
      await harness.dispose();
    });

    it('creates a session with the first append and numbers events from 1', async () => {
      err(await store.load('job-1'), 'not_found');
      expect(ok(await store.append('job-1', 0, events(2)))).toBe(2);
      expect(ok(await store.append('job-1', 2, events(3, 3)))).toBe(5);
      const loaded = ok(await store.load('job-1'));
      expect(loaded).toEqual({
        sessionId: 'job-1',
        version: 5,
        snapshot: null,
        events: events(5).map((event, i) => ({ sequence: i + 1, ...event })),
        issues: [],
      });
      expect(Object.isFrozen(loaded)).toBe(true);
      expect(Object.isFrozen(loaded.events[0]?.data)).toBe(true);
      expect(
        Object.isFrozen((loaded.events[0]?.data as { nested: object } | undefined)?.nested),
      ).toBe(true);
    });

    it('refuses a stale or a future expected version with conflict, writing nothing', async () => {
      ok(await store.append('s', 0, events(2)));
      for (const expected of [0, 1, 3, 100]) {
        const error = err(await store.append('s', expected, events(1, 9)), 'conflict');
        expect(error.sessionId).toBe('s');
        expect(error.field).toBe('expectedVersion');
        expect(error.message).toBe(
          `Session s is at version 2, not the expected ${expected}; reload it and retry.`,
        );
      }
      err(await store.append('absent', 1, events(1)), 'conflict');
      expect(err(await store.load('absent'), 'not_found').message).toBe(
        'Session absent is not in the store.',
      );
      expect(ok(await store.load('s')).events).toHaveLength(2);
    });

    it('lets exactly one of several racing appends at one version win', async () => {
      ok(await store.append('race', 0, events(1)));
      const other = harness.open();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 === 0 ? store : other).append('race', 1, events(2, 10 * (i + 1))),
        ),
      );
      const winners = results.filter((result) => result.ok);
      expect(winners).toHaveLength(1);
      for (const result of results) if (!result.ok) expect(result.error.code).toBe('conflict');
      const loaded = ok(await store.load('race'));
      expect(loaded.events.map((event) => event.sequence)).toEqual([1, 2, 3]);
      const winner = results.findIndex((result) => result.ok);
      expect(loaded.events[1]?.data).toEqual(events(1, 10 * (winner + 1))[0]?.data);
    });

    it('keeps sessions apart', async () => {
      ok(await store.append('one', 0, events(1, 1, 'test.One')));
      ok(await store.append('two', 0, events(2, 1, 'test.Two')));
      expect(ok(await store.load('one')).events.map((e) => e.type)).toEqual(['test.One']);
      expect(ok(await store.load('two')).version).toBe(2);
    });

    it('stores JSON data exactly and copies it in and out', async () => {
      const data = {
        text: 'héllo 😀 "quoted" \\ \n\t\u0000 \ud800',
        numbers: [0, -1, 1.5, 1e-7, Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, 5e-324],
        flags: [true, false, null],
        empty: { a: {}, b: [] },
        unicodeKey: { 'ключ 🔑': 1 },
        dropped: undefined,
      };
      Object.defineProperty(data, '__proto__', {
        value: { polluted: true },
        enumerable: true,
        configurable: true,
        writable: true,
      });
      const input = [{ type: 'test.Data', at: -1.5, data }];
      ok(await store.append('data', 0, input));
      data.text = 'changed after the append';
      const [stored] = ok(await store.load('data')).events;
      const expected = JSON.parse(
        JSON.stringify({ ...data, text: 'héllo 😀 "quoted" \\ \n\t\u0000 \ud800' }),
      );
      expect(stored?.data).toEqual(expected);
      expect(stored?.at).toBe(-1.5);
      expect(Object.hasOwn(stored?.data as object, 'dropped')).toBe(false);
      expect(Object.hasOwn(stored?.data as object, '__proto__')).toBe(true);
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
      expect(() => {
        (stored?.data as { text: string }).text = 'x';
      }).toThrow(TypeError);
    });

    it('gives -0 back as 0 in data, snapshots and times: JSON has no negative zero', async () => {
      ok(
        await store.append('zero', 0, [{ type: 'test.Data', at: -0, data: { n: -0, list: [-0] } }]),
      );
      ok(await store.saveSnapshot('zero', { version: 1, data: { n: -0 } }));
      const loaded = ok(await store.load('zero', { snapshot: false }));
      const event = loaded.events[0] as StoredEvent;
      const data = event.data as { n: number; list: number[] };
      expect(Object.is(event.at, 0)).toBe(true);
      expect(Object.is(data.n, 0)).toBe(true);
      expect(Object.is(data.list[0], 0)).toBe(true);
      const snapshot = ok(await store.load('zero')).snapshot as StoredSnapshot;
      expect(Object.is((snapshot.data as { n: number }).n, 0)).toBe(true);
    });

    it('refuses what JSON cannot carry with event_invalid naming the path, writing nothing', async () => {
      class Point {
        x = 1;
      }
      const cycle: Record<string, unknown> = {};
      cycle['self'] = cycle;
      const cases: [unknown, string][] = [
        [Number.NaN, 'events[1].data'],
        [{ a: Number.POSITIVE_INFINITY }, 'events[1].data.a'],
        [{ a: [1, 2, 10n] }, 'events[1].data.a[2]'],
        [{ f: () => 1 }, 'events[1].data.f'],
        [{ s: Symbol('x') }, 'events[1].data.s'],
        [{ [Symbol('k')]: 1 }, 'events[1].data'],
        [{ when: new Date(0) }, 'events[1].data.when'],
        [{ map: new Map() }, 'events[1].data.map'],
        [{ point: new Point() }, 'events[1].data.point'],
        [{ deep: { cycle } }, 'events[1].data.deep.cycle.self'],
        [[1, undefined], 'events[1].data[1]'],
        // biome-ignore lint/suspicious/noSparseArray: the hole is the point
        [[1, , 3], 'events[1].data[1]'],
        [undefined, 'events[1].data'],
        [{ 'odd key': { x: Number.NaN } }, 'events[1].data["odd key"].x'],
      ];
      for (const [data, field] of cases) {
        const batch = [...events(1), { type: 'test.Bad', at: 1, data }];
        const error = err(await store.append('bad', 0, batch), 'event_invalid');
        expect(error.field).toBe(field);
        expect(error.message).toContain(field);
      }
      const shapes: [unknown, string][] = [
        [null, 'events[1]'],
        [[], 'events[1]'],
        [{ type: '', at: 1, data: 1 }, 'events[1].type'],
        [{ type: '1x', at: 1, data: 1 }, 'events[1].type'],
        [{ type: 'x'.repeat(129), at: 1, data: 1 }, 'events[1].type'],
        [{ type: 'a/b', at: 1, data: 1 }, 'events[1].type'],
        [{ type: 'x', at: Number.NaN, data: 1 }, 'events[1].at'],
        [{ type: 'x', at: '1', data: 1 }, 'events[1].at'],
        [{ type: 'x', data: 1 }, 'events[1].at'],
      ];
      for (const [event, field] of shapes) {
        const error = err(
          await store.append('bad', 0, [...events(1), event as NewEvent]),
          'event_invalid',
        );
        expect(error.field).toBe(field);
      }
      err(await store.load('bad'), 'not_found');
    });

    it('rejects programmer errors without touching the store', async () => {
      const store_ = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const calls: [string, unknown[]][] = [
        ['append', ['s', -1, events(1)]],
        ['append', ['s', 1.5, events(1)]],
        ['append', ['s', '0', events(1)]],
        ['append', ['s', Number.NaN, events(1)]],
        ['append', ['s', 0, []]],
        ['append', ['s', 0, 'events']],
        ['saveSnapshot', ['s', { version: 0, data: {} }]],
        ['saveSnapshot', ['s', { version: 1.5, data: {} }]],
        ['saveSnapshot', ['s', null]],
        ['load', ['s', { snapshot: 'no' }]],
        ['load', ['s', { unknown: true }]],
        ['list', [{ limit: 0 }]],
        ['list', [{ limit: 2.5 }]],
        ['list', [{ after: 3 }]],
        ['list', [{ prefix: 'a' }]],
      ];
      for (const [method, args] of calls) {
        const call = store_[method] as (...args: unknown[]) => Promise<unknown>;
        await expect(
          call.apply(store, args),
          `${method}(${JSON.stringify(args)})`,
        ).rejects.toMatchObject({
          name: 'PlankitError',
          code: 'argument_invalid',
        });
      }
      expect(ok(await store.list())).toEqual([]);
    });

    it('accepts the same session ids everywhere and refuses hostile ones before any I/O', async () => {
      for (const [i, id] of VALID_IDS.entries()) {
        expect(ok(await store.append(id, 0, events(1, i))), id).toBe(1);
        expect(ok(await store.load(id)).sessionId).toBe(id);
      }
      for (const id of HOSTILE_IDS) {
        if (HOSTILE_VALID.has(id as string)) continue;
        const shown = JSON.stringify(String(id)).slice(0, 30);
        const asId = id as string;
        for (const result of [
          await store.load(asId),
          await store.append(asId, 0, events(1)),
          await store.saveSnapshot(asId, { version: 1, data: {} }),
          await store.delete(asId),
        ]) {
          const error = err(result, 'session_id_invalid');
          expect(error.field, shown).toBe('sessionId');
          expect(error.message.length, shown).toBeLessThan(400);
        }
      }
      // Valid, though they look like things a store might use internally.
      for (const id of HOSTILE_VALID) expect(ok(await store.append(id, 0, events(1)))).toBe(1);
      expect(ok(await store.list())).toEqual(byCodePoint([...VALID_IDS, ...HOSTILE_VALID]));
    });

    it('keeps any valid id apart and gives it back exactly, in load and list', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(anySessionId, { minLength: 1, maxLength: 4 }),
          async (ids) => {
            run++;
            for (const [i, id] of ids.entries()) {
              expect(ok(await store.append(id, 0, events(i + 1, run * 10))), id).toBe(i + 1);
            }
            for (const [i, id] of ids.entries()) {
              const loaded = ok(await store.load(id));
              expect(loaded.sessionId).toBe(id);
              expect(loaded.version).toBe(i + 1);
            }
            expect(ok(await store.list())).toEqual(byCodePoint(ids));
            for (const id of ids) expect(ok(await store.delete(id))).toBe(true);
          },
        ),
        { numRuns: 20 },
      );
    });

    it('tells ids apart that differ only in case', async () => {
      ok(await store.append('job-a', 0, events(1)));
      ok(await store.append('Job-A', 0, events(2)));
      ok(await store.append('JOB-A', 0, events(3)));
      expect(ok(await store.load('job-a')).version).toBe(1);
      expect(ok(await store.load('Job-A')).version).toBe(2);
      expect(ok(await store.load('JOB-A')).version).toBe(3);
    });

    it('saves a snapshot and loads it with only the events after it', async () => {
      err(await store.saveSnapshot('snap', { version: 1, data: {} }), 'not_found');
      ok(await store.append('snap', 0, events(5)));
      expect(ok(await store.saveSnapshot('snap', { version: 3, data: { upTo: 3 } }))).toBe(true);
      let loaded = ok(await store.load('snap'));
      expect(loaded.snapshot).toEqual({ version: 3, schemaVersion: 1, data: { upTo: 3 } });
      expect(loaded.events.map((event) => event.sequence)).toEqual([4, 5]);
      expect(loaded.version).toBe(5);
      expect(Object.isFrozen(loaded.snapshot?.data)).toBe(true);

      expect(ok(await store.saveSnapshot('snap', { version: 5, data: { upTo: 5 } }))).toBe(true);
      loaded = ok(await store.load('snap'));
      expect(loaded.snapshot?.data).toEqual({ upTo: 5 });
      expect(loaded.events).toEqual([]);

      // An older snapshot never replaces a newer one; the same version does.
      expect(ok(await store.saveSnapshot('snap', { version: 4, data: { upTo: 4 } }))).toBe(false);
      expect(ok(await store.saveSnapshot('snap', { version: 5, data: { again: 5 } }))).toBe(true);
      expect(ok(await store.load('snap')).snapshot?.data).toEqual({ again: 5 });

      ok(await store.append('snap', 5, events(2, 6)));
      loaded = ok(await store.load('snap'));
      expect(loaded.events.map((event) => event.sequence)).toEqual([6, 7]);
      const all = ok(await store.load('snap', { snapshot: false }));
      expect(all.snapshot).toBeNull();
      expect(all.events.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });

    it('stores snapshot data exactly: extreme numbers, long text, any key', async () => {
      ok(await store.append('exact', 0, events(1)));
      const data = {
        // jsonb keeps numbers as decimals: each must come back as the same double.
        numbers: [
          5e-324,
          -Number.MAX_VALUE,
          Number.MAX_VALUE,
          0.1 + 0.2,
          1e21,
          123456789.12345679,
          Number.MIN_SAFE_INTEGER,
          2 ** 53 + 2,
          2.2250738585072014e-308,
          -0,
        ],
        text: `${'héllo 😀 \u2028 '.repeat(20_000)}"\\`,
        keys: { '': 1, 'ключ 🔑': 2, constructor: 3, 'a.b': 4 },
      };
      Object.defineProperty(data.keys, '__proto__', {
        value: { polluted: true },
        enumerable: true,
        configurable: true,
        writable: true,
      });
      ok(await store.saveSnapshot('exact', { version: 1, data }));
      const stored = ok(await store.load('exact')).snapshot?.data;
      // JSON has no negative zero: -0 comes back as 0, in every store alike.
      expect(stored).toEqual(JSON.parse(JSON.stringify(data)));
      expect(Object.hasOwn((stored as { keys: object }).keys, '__proto__')).toBe(true);
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    });

    it('refuses a snapshot ahead of the log or holding what jsonb cannot store', async () => {
      ok(await store.append('snap', 0, events(2)));
      const ahead = err(await store.saveSnapshot('snap', { version: 3, data: {} }), 'conflict');
      expect(ahead.field).toBe('snapshot.version');
      expect(ahead.message).toBe("Snapshot version 3 is ahead of session snap's version 2.");
      const bad: [unknown, string][] = [
        [{ text: 'a\u0000b' }, 'snapshot.data.text'],
        [{ text: 'lone \ud83d' }, 'snapshot.data.text'],
        [{ 'k\u0000': 1 }, 'snapshot.data["k\\u0000"]'],
        [{ n: Number.NaN }, 'snapshot.data.n'],
        [{ d: new Date(0) }, 'snapshot.data.d'],
      ];
      for (const [data, field] of bad) {
        expect(
          err(await store.saveSnapshot('snap', { version: 1, data }), 'snapshot_invalid').field,
        ).toBe(field);
      }
      expect(ok(await store.load('snap')).snapshot).toBeNull();
    });

    // A store's own snapshots always carry its version: old ones need a second instance.
    it.runIf(sharedStorage)(
      'upgrades old snapshots with migrations and refuses future ones',
      async () => {
        ok(await store.append('m', 0, events(2)));
        ok(await store.saveSnapshot('m', { version: 1, data: { names: ['a'] } }));
        const v3 = harness.open({
          version: 3,
          migrations: {
            1: (data) => ({ ...(data as object), v2: true }),
            2: (data) => ({ ...(data as object), v3: true }),
          },
        });
        const upgraded = ok(await v3.load('m'));
        expect(upgraded.snapshot).toEqual({
          version: 1,
          schemaVersion: 3,
          data: { names: ['a'], v2: true, v3: true },
        });
        expect(Object.isFrozen(upgraded.snapshot?.data)).toBe(true);

        const gap = harness.open({ version: 3, migrations: { 2: (data) => data } });
        expect(err(await gap.load('m'), 'migration_failed').message).toContain('version 1 to 2');
        const throwing = harness.open({
          version: 2,
          migrations: {
            1: () => {
              throw new Error('boom');
            },
          },
        });
        const thrown = err(await throwing.load('m'), 'migration_failed');
        expect(thrown.message).toContain('boom');
        const nonJson = harness.open({ version: 2, migrations: { 1: () => ({ n: Number.NaN }) } });
        expect(err(await nonJson.load('m'), 'migration_failed').message).toContain('data.n');
        // Migrations only run on snapshots; the log is readable without them.
        expect(ok(await gap.load('m', { snapshot: false })).events).toHaveLength(2);

        ok(await v3.saveSnapshot('m', { version: 2, data: { fromV3: true } }));
        const future = err(await store.load('m'), 'snapshot_version_unknown');
        expect(future.message).toContain('schema version 3');
        expect(future.field).toBe('snapshot.schemaVersion');
      },
    );

    it.runIf(sharedStorage)('refuses bad snapshot schemas at construction', () => {
      for (const schema of [
        { version: 0 },
        { version: 1.5 },
        { version: 2, migrations: { 2: (d: unknown) => d } },
        { version: 2, migrations: { 0: (d: unknown) => d } },
        { version: 2, migrations: { 1: 'no' } },
        { version: 2, migrations: { '01': (d: unknown) => d } },
      ]) {
        expect(() => harness.open(schema as SnapshotSchema), JSON.stringify(schema)).toThrow(
          expect.objectContaining({ code: 'argument_invalid' }),
        );
      }
    });

    it('lists sessions in code-point order, after a given id, at most a limit', async () => {
      expect(ok(await store.list())).toEqual([]);
      const ids = ['b', 'a', 'B', 'a-1', 'a.1', 'a:1', 'a_1', 'A', '0', 'z'];
      for (const id of ids) ok(await store.append(id, 0, events(1)));
      const sorted = byCodePoint(ids);
      const all = ok(await store.list());
      expect(all).toEqual(sorted);
      expect(Object.isFrozen(all)).toBe(true);
      expect(ok(await store.list({ limit: 3 }))).toEqual(sorted.slice(0, 3));
      expect(ok(await store.list({ after: 'a' }))).toEqual(sorted.slice(sorted.indexOf('a') + 1));
      expect(ok(await store.list({ after: 'a-0', limit: 2 }))).toEqual(['a-1', 'a.1']);
      expect(ok(await store.list({ after: 'zz' }))).toEqual([]);
      let page: readonly string[] = [];
      const seen: string[] = [];
      do {
        const after = page.at(-1);
        page = ok(await store.list(after === undefined ? { limit: 4 } : { after, limit: 4 }));
        seen.push(...page);
      } while (page.length === 4);
      expect(seen).toEqual(sorted);
      // Past U+FFFF code units and code points disagree: 😀 (U+1F600) sorts after U+FFFD.
      ok(await store.append('z\u{1F600}', 0, events(1)));
      ok(await store.append('z\uFFFD', 0, events(1)));
      expect(ok(await store.list({ after: 'z' }))).toEqual(['z\uFFFD', 'z\u{1F600}']);
      expect(ok(await store.list({ after: 'z\uFFFD' }))).toEqual(['z\u{1F600}']);
    });

    it('deletes a session, its snapshot with it, and lets the id start afresh', async () => {
      ok(await store.append('gone', 0, events(3)));
      ok(await store.saveSnapshot('gone', { version: 2, data: { s: 1 } }));
      ok(await store.append('kept', 0, events(1)));
      expect(ok(await store.delete('gone'))).toBe(true);
      expect(ok(await store.delete('gone'))).toBe(false);
      expect(ok(await store.delete('never'))).toBe(false);
      err(await store.load('gone'), 'not_found');
      expect(ok(await store.list())).toEqual(['kept']);
      err(await store.append('gone', 3, events(1)), 'conflict');
      ok(await store.append('gone', 0, events(1, 50)));
      const fresh = ok(await store.load('gone'));
      expect(fresh.snapshot).toBeNull();
      expect(fresh.events.map((event) => event.data)).toEqual([events(1, 50)[0]?.data]);
    });

    it('is seen alike by another instance on the same storage', async () => {
      const other = harness.open();
      ok(await store.append('shared', 0, events(2)));
      expect(ok(await other.load('shared')).version).toBe(2);
      ok(await other.append('shared', 2, events(1, 3)));
      err(await store.append('shared', 2, events(1, 3)), 'conflict');
      expect(ok(await store.load('shared')).version).toBe(3);
    });

    it('waits for calls in flight on close, then refuses calls with closed', async () => {
      const pending = store.append('c', 0, events(3));
      await Promise.all([store.close(), store.close()]);
      expect(ok(await pending)).toBe(3);
      for (const result of [
        await store.load('c'),
        await store.append('c', 3, events(1)),
        await store.saveSnapshot('c', { version: 1, data: {} }),
        await store.list(),
        await store.delete('c'),
      ]) {
        err(result, 'closed');
      }
      await store.close();
      if (sharedStorage) expect(ok(await harness.open().load('c')).version).toBe(3);
    });

    it('behaves like a model store under any sequence of calls', async () => {
      type Op =
        | { kind: 'append'; session: number; offset: number; count: number }
        | { kind: 'snapshot'; session: number; back: number }
        | { kind: 'delete'; session: number };
      const op = fc.oneof(
        {
          weight: 5,
          arbitrary: fc.record({
            kind: fc.constant('append' as const),
            session: fc.nat(2),
            offset: fc.constantFrom(0, 0, 0, -1, 1),
            count: fc.integer({ min: 1, max: 3 }),
          }),
        },
        {
          weight: 2,
          arbitrary: fc.record({
            kind: fc.constant('snapshot' as const),
            session: fc.nat(2),
            back: fc.nat(3),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({ kind: fc.constant('delete' as const), session: fc.nat(2) }),
        },
      );
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 16 }), async (ops: Op[]) => {
          run++;
          const id = (n: number) => `model-${run}-${n}`;
          const model = new Map<number, { events: number; snapshot: number }>();
          for (const step of ops) {
            const state = model.get(step.session) ?? { events: 0, snapshot: 0 };
            if (step.kind === 'append') {
              const expected = state.events + step.offset;
              if (expected < 0) continue;
              const result = await store.append(
                id(step.session),
                expected,
                events(step.count, state.events + 1),
              );
              if (step.offset === 0) {
                expect(ok(result)).toBe(state.events + step.count);
                model.set(step.session, { ...state, events: state.events + step.count });
              } else {
                err(result, 'conflict');
              }
            } else if (step.kind === 'snapshot') {
              const version = state.events - step.back;
              if (version < 1) continue;
              const saved = ok(
                await store.saveSnapshot(id(step.session), { version, data: { version } }),
              );
              expect(saved).toBe(version >= state.snapshot);
              if (saved) model.set(step.session, { ...state, snapshot: version });
            } else {
              expect(ok(await store.delete(id(step.session)))).toBe(state.events > 0);
              model.delete(step.session);
            }
          }
          for (const session of [0, 1, 2]) {
            const state = model.get(session);
            const loaded = await store.load(id(session));
            if (state === undefined || state.events === 0) {
              err(loaded, 'not_found');
              continue;
            }
            const value = ok(loaded);
            expect(value.version).toBe(state.events);
            expect(value.snapshot?.version ?? 0).toBe(state.snapshot);
            expect(value.events.map((event) => event.sequence)).toEqual(
              Array.from(
                { length: state.events - state.snapshot },
                (_, i) => state.snapshot + i + 1,
              ),
            );
            expect(value.events.map((event) => (event.data as { n: number }).n)).toEqual(
              value.events.map((event) => event.sequence),
            );
          }
        }),
        { numRuns: 25 },
      );
    });
  });
}
