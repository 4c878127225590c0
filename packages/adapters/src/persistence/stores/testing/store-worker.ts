/**
 * A worker process for the concurrency and crash tests: opens a FileStore or PostgresStore
 * and appends to one session, printing one line per acknowledged append.
 *
 *   append: waits for "go" on stdin, then appends `count` events one at a time, reloading and
 *           retrying after each conflict; prints `ack <sequence> <worker> <n>`, then `done`.
 *   crash:  appends batches of 1-3 events (some of 256 KB) and saves a 1 MB snapshot after every
 *           other one,
 *           until killed; prints `ready <version>` first, then `ack <version>` per append.
 *   ids:    appends one event to each of `ids` at its current version, prints `done`.
 */
import type { NewEvent, SessionStore } from '../session-store.ts';
import type { WorkerStore } from './process-tests.ts';
import { fail, openWorkerStore, print } from './worker-io.ts';

interface Config {
  readonly store: WorkerStore;
  readonly mode: 'append' | 'crash' | 'ids';
  readonly sessionId: string;
  readonly ids?: readonly string[];
  readonly worker: number;
  readonly count?: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

async function currentVersion(store: SessionStore, sessionId = config.sessionId): Promise<number> {
  const loaded = await store.load(sessionId, { snapshot: false });
  if (loaded.ok) return loaded.value.version;
  if (loaded.error.code === 'not_found') return 0;
  return fail(`load failed: ${loaded.error.code}: ${loaded.error.message}`);
}

async function appendMode(store: SessionStore): Promise<void> {
  await print('ready');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  let conflicts = 0;
  for (let n = 1; n <= (config.count ?? 1); n++) {
    const event: NewEvent = { type: 'test.Work', at: n, data: { worker: config.worker, n } };
    for (;;) {
      const version = await currentVersion(store);
      const appended = await store.append(config.sessionId, version, [event]);
      if (appended.ok) {
        await print(`ack ${appended.value} ${config.worker} ${n}`);
        break;
      }
      if (appended.error.code !== 'conflict')
        fail(`append failed: ${appended.error.code}: ${appended.error.message}`);
      conflicts++;
    }
  }
  await print(`done ${conflicts}`);
  await store.close();
}

async function crashMode(store: SessionStore): Promise<void> {
  let version = await currentVersion(store);
  await print(`ready ${version}`);
  // Big writes take long enough for a kill to land inside them: a torn append, a half-written
  // snapshot file, a lock left behind.
  const filler = 'y'.repeat(1024 * 1024);
  for (let i = 0; ; i++) {
    const pad = i % 4 === 3 ? 256 * 1024 : 100 + ((i * 37) % 400);
    const batch: NewEvent[] = Array.from({ length: 1 + (i % 3) }, (_, j) => ({
      type: 'test.Crash',
      at: i,
      data: { worker: config.worker, seq: version + j + 1, pad: 'x'.repeat(pad) },
    }));
    const appended = await store.append(config.sessionId, version, batch);
    if (!appended.ok) fail(`append failed: ${appended.error.code}: ${appended.error.message}`);
    version = appended.value;
    await print(`ack ${version}`);
    if (i % 2 === 0) {
      const data = { version, worker: config.worker, filler };
      const saved = await store.saveSnapshot(config.sessionId, { version, data });
      if (!saved.ok) fail(`snapshot failed: ${saved.error.code}: ${saved.error.message}`);
    }
  }
}

async function idsMode(store: SessionStore): Promise<void> {
  for (const id of config.ids ?? []) {
    const version = await currentVersion(store, id);
    const event: NewEvent = {
      type: 'test.Id',
      at: version + 1,
      data: { id, worker: config.worker },
    };
    const appended = await store.append(id, version, [event]);
    if (!appended.ok) fail(`append failed: ${appended.error.code}: ${appended.error.message}`);
  }
  await print('done');
  await store.close();
}

const store = await openWorkerStore(config.store, { lockTimeoutMs: 30_000, poolSize: 2 });
if (config.mode === 'append') await appendMode(store);
else if (config.mode === 'ids') await idsMode(store);
else await crashMode(store);
