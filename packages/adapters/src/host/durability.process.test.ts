import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Plan, selectLatest } from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore } from '../persistence/stores/file-store.ts';
import { startWorker } from '../persistence/stores/testing/run-worker.ts';
import { createSessionPool } from '../sessions/create-session-pool.ts';
import type { Durability } from './host-tool-options.ts';

const WORKER = fileURLToPath(new URL('./testing/durability-worker.ts', import.meta.url));

/**
 * Runs the worker until it has acknowledged `calls` tool calls, SIGKILLs it, and returns the
 * highest call it acknowledged and the step titles the store kept.
 */
async function killAfter(
  directory: string,
  durability: Durability,
  calls: number,
): Promise<{ acknowledged: number; stored: string[] }> {
  const worker = startWorker(WORKER, { directory, durability });
  await worker.waitFor(new RegExp(`^ack ${calls}$`));
  worker.child.kill('SIGKILL');
  const exit = await worker.exited;
  expect(exit.signal, exit.stderr).toBe('SIGKILL');
  const acks = worker.lines.filter((line) => line.startsWith('ack '));
  const acknowledged = Number(acks.at(-1)?.slice('ack '.length));
  const pool = createSessionPool({ store: new FileStore({ directory }) });
  const stored = await pool.run(
    'conversation',
    (session) => selectLatest(session, Plan)?.steps.map((step) => step.title) ?? [],
  );
  await pool.close();
  if (!stored.ok) throw stored.error;
  return { acknowledged, stored: stored.value };
}

describe('host tool results and the store, through a SIGKILL (FileStore)', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-durability-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("'sync': every call whose result was handed back is stored", async () => {
    const { acknowledged, stored } = await killAfter(directory, 'sync', 40);
    expect(acknowledged).toBeGreaterThanOrEqual(40);
    // Each acknowledged step is there, in order; at most the call in flight beyond them.
    const expected = Array.from({ length: acknowledged + 1 }, (_, n) => `step ${n}`);
    expect(stored.slice(0, acknowledged + 1)).toEqual(expected);
    expect(stored.length).toBeLessThanOrEqual(acknowledged + 2);
  }, 120_000);

  it("'async': what is stored is a prefix of the calls made, whatever the kill cut off", async () => {
    const { acknowledged, stored } = await killAfter(directory, 'async', 40);
    expect(acknowledged).toBeGreaterThanOrEqual(40);
    // A result may come back before its write: the store keeps an unbroken prefix, possibly
    // short of what was acknowledged (never corrupt, never out of order).
    expect(stored).toEqual(Array.from({ length: stored.length }, (_, n) => `step ${n}`));
    expect(stored.length).toBeLessThanOrEqual(acknowledged + 2);
  }, 120_000);
});
