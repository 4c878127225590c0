import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PhaseJob } from '@plankit/controller/workflows';
import {
  createPlanningTools,
  replaceLatest,
  Session,
  type SessionSnapshotJSON,
} from '@plankit/core';
import { expect } from 'vitest';
import { attachStore } from '../attach-store.ts';
import type { SessionStore } from '../session-store.ts';
import { startWorker, type Worker } from './run-worker.ts';
import { byCodePoint, ok } from './store-contract.ts';

const WORKER = fileURLToPath(new URL('./store-worker.ts', import.meta.url));

/** How the worker opens the store under test. */
export type WorkerStore =
  | { readonly kind: 'file'; readonly directory: string; readonly groupCommit?: boolean }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string };

/**
 * Several worker processes append to one session at once; afterwards the log must hold every
 * acknowledged event exactly once, at the sequence its worker was told, in order.
 */
export async function checkConcurrentAppends(
  store: SessionStore,
  target: WorkerStore,
  workers: number,
  count: number,
): Promise<{ conflicts: number }> {
  const sessionId = 'concurrent';
  const started: Worker[] = [];
  for (let worker = 1; worker <= workers; worker++) {
    started.push(startWorker(WORKER, { store: target, mode: 'append', sessionId, worker, count }));
  }
  // Start together, so the appends really race.
  await Promise.all(started.map((worker) => worker.waitFor(/^ready$/)));
  for (const worker of started) worker.child.stdin?.end('go\n');
  const exits = await Promise.all(started.map((worker) => worker.exited));
  for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

  const acks = new Map<number, string>();
  let conflicts = 0;
  for (const worker of started) {
    for (const line of worker.lines) {
      const [kind, a, b, c] = line.split(' ');
      if (kind === 'ack') {
        expect(acks.has(Number(a)), `sequence ${a} acknowledged twice`).toBe(false);
        acks.set(Number(a), `${b}/${c}`);
      } else if (kind === 'done') {
        conflicts += Number(a);
      }
    }
  }
  const loaded = ok(await store.load(sessionId));
  expect(loaded.version).toBe(workers * count);
  expect(acks.size).toBe(workers * count);
  const seen = new Set<string>();
  for (const event of loaded.events) {
    const { worker, n } = event.data as { worker: number; n: number };
    const key = `${worker}/${n}`;
    expect(seen.has(key), `${key} stored twice`).toBe(false);
    seen.add(key);
    expect(acks.get(event.sequence), `event ${event.sequence}`).toBe(key);
  }
  // Each worker's own events are in the order it appended them.
  for (let worker = 1; worker <= workers; worker++) {
    const mine = loaded.events
      .map((event) => event.data as { worker: number; n: number })
      .filter((data) => data.worker === worker)
      .map((data) => data.n);
    expect(mine).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  }
  return { conflicts };
}

/**
 * Kills a worker with SIGKILL in the middle of its appends and snapshot writes, `rounds`
 * times. After each kill, reloading must succeed and hold every acknowledged event.
 *
 * @param killWhen - for a round, a condition to kill on as soon as it holds (polled), such as
 *   "the session is locked"; by default the worker is killed after a few acknowledged appends
 */
export async function checkCrashes(
  store: SessionStore,
  target: WorkerStore,
  rounds: number,
  killWhen: (round: number) => (() => boolean) | undefined = () => undefined,
): Promise<{ torn: number; version: number }> {
  const sessionId = 'crash';
  // For every worker: the events it acknowledged, (from, to].
  const acknowledged: { worker: number; from: number; to: number }[] = [];
  let torn = 0;
  let version = 0;
  for (let worker = 1; worker <= rounds; worker++) {
    const running = startWorker(WORKER, { store: target, mode: 'crash', sessionId, worker });
    const ready = await running.waitFor(/^ready /);
    const from = Number(ready.split(' ')[1]);
    expect(from).toBeGreaterThanOrEqual(version);
    // Let it write a while (a different number of appends each round), then kill it mid-flight.
    const acks = 1 + ((worker * 7) % 9);
    await running.waitFor(
      (line) => line.startsWith('ack ') && Number(line.slice(4)) >= from + acks,
    );
    const condition = killWhen(worker);
    if (condition === undefined) await sleep(worker % 4);
    else
      for (let polls = 0; polls < 50_000 && !condition(); polls++) await new Promise(setImmediate);
    running.child.kill('SIGKILL');
    const exit = await running.exited;
    expect(exit.signal, exit.stderr).toBe('SIGKILL');
    const last = Math.max(
      from,
      ...running.lines.filter((l) => l.startsWith('ack ')).map((l) => Number(l.slice(4))),
    );
    acknowledged.push({ worker, from, to: last });

    const loaded = ok(await store.load(sessionId));
    for (const issue of loaded.issues) expect(issue.code).toBe('torn_tail');
    if (loaded.issues.length > 0) torn++;
    expect(loaded.version).toBeGreaterThanOrEqual(last);
    if (loaded.snapshot !== null) {
      const data = loaded.snapshot.data as { version: number; filler: string };
      expect(data.version).toBe(loaded.snapshot.version);
      expect(data.filler).toHaveLength(1024 * 1024);
    }
    const all = ok(await store.load(sessionId, { snapshot: false }));
    expect(all.events.map((event) => event.sequence)).toEqual(
      Array.from({ length: all.version }, (_, i) => i + 1),
    );
    for (const event of all.events) {
      expect((event.data as { seq: number }).seq).toBe(event.sequence);
    }
    for (const range of acknowledged) {
      for (let sequence = range.from + 1; sequence <= range.to; sequence++) {
        expect(all.events[sequence - 1]?.data).toMatchObject({ worker: range.worker });
      }
    }
    version = all.version;
  }
  return { torn, version };
}

/**
 * Two processes, one after the other, each append an event to every id in `ids` (host ids:
 * nanoid, base64, emails, `org/chat`, long ones) and exit; this process then finds each id
 * in `list()` and loads both events, so the store's key for an id survives a restart.
 */
export async function checkIdsAcrossProcesses(
  store: SessionStore,
  target: WorkerStore,
  ids: readonly string[],
): Promise<void> {
  for (const worker of [1, 2]) {
    const running = startWorker(WORKER, { store: target, mode: 'ids', sessionId: '', worker, ids });
    const exit = await running.exited;
    expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
    expect(running.lines).toContain('done');
  }
  expect(ok(await store.list())).toEqual(byCodePoint(ids));
  for (const id of ids) {
    const loaded = ok(await store.load(id));
    expect(loaded.sessionId).toBe(id);
    expect(loaded.events.map((event) => event.data)).toEqual([
      { id, worker: 1 },
      { id, worker: 2 },
    ]);
  }
}

const RESUME_WORKER = fileURLToPath(new URL('./resume-worker.ts', import.meta.url));

/**
 * Freezes a planned job for review in one process and approves it in another, through
 * `target`; returns the session each process left, and what a third session restores.
 */
export async function runReviewResume(
  store: SessionStore,
  target: WorkerStore,
): Promise<{ frozen: SessionSnapshotJSON; approved: SessionSnapshotJSON; restored: Session }> {
  const sessionId = 'job-42';
  const results: SessionSnapshotJSON[] = [];
  for (const step of ['freeze', 'approve'] as const) {
    const worker = startWorker(RESUME_WORKER, { store: target, step, sessionId });
    const exit = await worker.exited;
    expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
    results.push(JSON.parse(worker.lines.at(-1) ?? 'null') as SessionSnapshotJSON);
  }
  const restored = new Session({ sessionId });
  createPlanningTools(restored);
  restored.register(PhaseJob, replaceLatest);
  const attached = await attachStore(restored, store);
  if (!attached.ok) throw attached.error;
  await attached.value.detach();
  const [frozen, approved] = results as [SessionSnapshotJSON, SessionSnapshotJSON];
  return { frozen, approved, restored };
}
