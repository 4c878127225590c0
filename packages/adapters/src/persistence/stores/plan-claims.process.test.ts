import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore } from './file-store.ts';
import { checkClaimRace } from './testing/claim-race.ts';

describe('a plan shared through FileStore by agents in separate processes', () => {
  let directory: string;
  let store: FileStore;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-claims-'));
    store = new FileStore({ directory });
  });

  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('two agents racing to claim the same 12 steps: exactly one wins each, the other is told who holds it', async () => {
    const { wins } = await checkClaimRace(store, { kind: 'file', directory }, 12);
    expect((wins['agent-a'] ?? 0) + (wins['agent-b'] ?? 0)).toBe(12);
  }, 120_000);
});
