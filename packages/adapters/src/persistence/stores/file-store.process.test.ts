import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore } from './file-store.ts';
import { HOST_IDS } from './testing/host-ids.ts';
import {
  checkConcurrentAppends,
  checkCrashes,
  checkIdsAcrossProcesses,
} from './testing/process-tests.ts';

describe('FileStore across processes', () => {
  let directory: string;
  let store: FileStore;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-file-process-'));
    store = new FileStore({ directory });
  });

  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps every acknowledged event exactly once when 4 processes append to one session', async () => {
    const { conflicts } = await checkConcurrentAppends(store, { kind: 'file', directory }, 4, 20);
    // The workers really raced: some appends lost and were retried.
    expect(conflicts).toBeGreaterThan(0);
  }, 60_000);

  it('never loses an acknowledged event when a writer is killed mid-append or mid-snapshot, 12 times', async () => {
    const folder = path.join(directory, 'sessions', 'crash');
    // Kill while it holds the session lock, while it writes a temporary file, or at a random
    // point after a few appends.
    const triggers = [
      () => existsSync(path.join(folder, 'lock')),
      () => readdirSync(folder).some((name) => name.startsWith('.tmp-')),
      undefined,
    ];
    const { version } = await checkCrashes(
      store,
      { kind: 'file', directory },
      12,
      (round) => triggers[round % 3],
    );
    expect(version).toBeGreaterThan(12);
  }, 90_000);

  it('with group commit: 4 processes append to one session, and killed writers lose nothing acknowledged', async () => {
    const target = { kind: 'file' as const, directory, groupCommit: true };
    const { conflicts } = await checkConcurrentAppends(store, target, 4, 10);
    expect(conflicts).toBeGreaterThan(0);
    const folder = path.join(directory, 'sessions', 'crash');
    const { version } = await checkCrashes(store, target, 6, (round) =>
      round % 2 === 0 ? () => existsSync(path.join(folder, 'lock')) : undefined,
    );
    expect(version).toBeGreaterThan(6);
  }, 90_000);

  it('finds every kind of host id again after a restart, from another process', async () => {
    await checkIdsAcrossProcesses(store, { kind: 'file', directory }, HOST_IDS);
  }, 60_000);
});
