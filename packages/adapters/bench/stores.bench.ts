import { mkdtempSync, rmSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { NewEvent, SessionStore } from '@plankit/adapters/stores';
import { FileStore } from '@plankit/adapters/stores';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';

// A typical event: a committed plan step, about 200 bytes as JSON.
const event = (n: number): NewEvent => ({
  type: 'plankit.session.committed',
  at: 1_700_000_000_000 + n,
  data: {
    changes: [
      {
        dataType: 'plankit.MarkStep',
        value: {
          step_id: `S${String((n % 999) + 1).padStart(3, '0')}`,
          status: 'done',
          note: `Finished item ${n}.`,
        },
      },
    ],
  },
});
const line = (n: number): string => `${JSON.stringify({ seq: n, ...event(n) })}\n`;

const LOAD_EVENTS = 10_000;
const GROUP_SESSIONS = 100;

const directories: string[] = [];
function tempDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'plankit-bench-'));
  directories.push(directory);
  return directory;
}
process.on('exit', () => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function expectOk<T>(result: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** Appends `count` events to a new session, 500 at a time. */
async function fill(store: SessionStore, sessionId: string, count: number): Promise<void> {
  for (let version = 0; version < count; version += 500) {
    const batch = Array.from({ length: Math.min(500, count - version) }, (_, i) =>
      event(version + i + 1),
    );
    expectOk(await store.append(sessionId, version, batch));
  }
}

/** One append after another to one session: each run is one acknowledged (synced) event. */
function appendSide(store: SessionStore): BenchSide {
  let version = 0;
  return {
    run: async () => {
      version = expectOk(await store.append('bench-append', version, [event(version + 1)]));
      return version;
    },
  };
}

/**
 * One append to each of `GROUP_SESSIONS` sessions at once (each run is 100 acknowledged,
 * synced events); the sessions are created untimed.
 */
async function concurrentSide(store: FileStore): Promise<BenchSide> {
  const versions = Array.from({ length: GROUP_SESSIONS }, () => 0);
  const id = (i: number) => `bench-group-${i}`;
  await Promise.all(
    versions.map(async (_, i) => {
      versions[i] = expectOk(await store.append(id(i), 0, [event(1)]));
    }),
  );
  return {
    run: () =>
      Promise.all(
        versions.map(async (version, i) => {
          versions[i] = expectOk(await store.append(id(i), version, [event(version + 1)]));
        }),
      ),
  };
}

const fileCases: BenchCase[] = [
  {
    name: 'FileStore append, 1 event',
    what: 'store.append (lock rename, stat against the known tail, write, fdatasync, unlock rename) vs fs.appendFile with flush (fsync)',
    maxRatio: 2,
    plankit: () => appendSide(new FileStore({ directory: tempDirectory() })),
    baseline: () => {
      const file = path.join(tempDirectory(), 'plain.jsonl');
      let n = 0;
      return { run: () => appendFile(file, line(++n), { flush: true }) };
    },
  },
  {
    name: 'FileStore append, 1 event, unsynced baseline',
    what: 'store.append vs a plain fs.appendFile loop (no fsync: not durable)',
    plankit: () => appendSide(new FileStore({ directory: tempDirectory() })),
    baseline: () => {
      const file = path.join(tempDirectory(), 'plain.jsonl');
      let n = 0;
      return { run: () => appendFile(file, line(++n)) };
    },
  },
  {
    name: 'FileStore append, another writer between appends',
    what: 'two FileStores on one folder taking turns, so every append reads the tail (the full path) vs fs.appendFile with flush (fsync)',
    plankit: () => {
      const directory = tempDirectory();
      const stores = [new FileStore({ directory }), new FileStore({ directory })];
      let version = 0;
      return {
        run: async () => {
          const store = stores[version % 2] as FileStore;
          version = expectOk(await store.append('bench-turns', version, [event(version + 1)]));
          return version;
        },
      };
    },
    baseline: () => {
      const file = path.join(tempDirectory(), 'plain.jsonl');
      let n = 0;
      return { run: () => appendFile(file, line(++n), { flush: true }) };
    },
  },
  {
    name: `FileStore group commit, ${GROUP_SESSIONS} sessions at once`,
    what: `one append to each of ${GROUP_SESSIONS} sessions at once: groupCommit (syncs issued and acknowledged together) vs the default (each append synced and acknowledged alone)`,
    plankit: () => concurrentSide(new FileStore({ directory: tempDirectory(), groupCommit: true })),
    baseline: () => concurrentSide(new FileStore({ directory: tempDirectory() })),
  },
  {
    name: `FileStore group commit vs plain files, ${GROUP_SESSIONS} sessions at once`,
    what: `one append to each of ${GROUP_SESSIONS} sessions at once with groupCommit vs fs.appendFile with flush to ${GROUP_SESSIONS} files at once`,
    plankit: () => concurrentSide(new FileStore({ directory: tempDirectory(), groupCommit: true })),
    baseline: () => {
      const directory = tempDirectory();
      let n = 0;
      return {
        run: () => {
          n++;
          return Promise.all(
            Array.from({ length: GROUP_SESSIONS }, (_, i) =>
              appendFile(path.join(directory, `plain-${i}.jsonl`), line(n), { flush: true }),
            ),
          );
        },
      };
    },
  },
  {
    name: `FileStore load, ${LOAD_EVENTS.toLocaleString('en-US')} events`,
    what: 'store.load (checked, frozen) vs readFile + split + JSON.parse per line',
    plankit: async () => {
      const store = new FileStore({ directory: tempDirectory() });
      await fill(store, 'bench-load', LOAD_EVENTS);
      return {
        run: async () => {
          const loaded = expectOk(await store.load('bench-load'));
          if (loaded.events.length !== LOAD_EVENTS) throw new Error('short load');
          return loaded;
        },
      };
    },
    baseline: async () => {
      const file = path.join(tempDirectory(), 'plain.jsonl');
      let text = '';
      for (let n = 1; n <= LOAD_EVENTS; n++) text += line(n);
      await appendFile(file, text);
      return {
        run: async () => {
          const lines = (await readFile(file, 'utf8')).split('\n');
          lines.pop();
          return lines.map((each) => JSON.parse(each) as unknown);
        },
      };
    },
  },
];

/**
 * Session stores: appends and loads next to the plain file calls they wrap. PostgresStore has
 * its own file, `postgres.bench.ts`.
 */
export const suite: BenchSuite = {
  name: '@plankit/adapters stores',
  cases: fileCases,
};
