import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock, type FileLock } from './file-lock.ts';
import { FileStore } from './file-store.ts';
import { events, ok } from './testing/store-contract.ts';

const modeOf = async (file: string): Promise<string> =>
  ((await stat(file)).mode & 0o777).toString(8).padStart(3, '0');

/** Every entry under `root` (itself included), with its mode. */
async function modes(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = { '.': await modeOf(root) };
  const entries = await readdir(root, { recursive: true });
  for (const entry of entries) found[entry] = await modeOf(path.join(root, entry));
  return found;
}

// Session data holds prompts, plans and tool results: no other local user may read it,
// whatever umask the host process runs with (0 is the most permissive, 0o700 would leave
// even the owner locked out if the store relied on it).
describe.each([0o000, 0o022, 0o077, 0o700])('FileStore permissions under umask %o', (mask) => {
  let parent: string;
  let previous: number;

  beforeEach(async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'plankit-modes-'));
    previous = process.umask(mask);
  });

  afterEach(async () => {
    process.umask(previous);
    await rm(parent, { recursive: true, force: true });
  });

  it('creates folders 0700 and files 0600: logs, snapshots, the .gitignore', async () => {
    const cwd = process.cwd();
    process.chdir(parent);
    let store: FileStore;
    try {
      store = new FileStore();
    } finally {
      process.chdir(cwd);
    }
    ok(await store.append('job-42', 0, events(2)));
    ok(await store.append('job-42', 2, events(1, 3)));
    ok(await store.saveSnapshot('job-42', { version: 3, data: { any: 'state' } }));
    ok(await store.saveSnapshot('job-42', { version: 3, data: { any: 'again' } }));
    ok(await store.append('Other', 0, events(1)));
    await store.close();
    expect(await modes(path.join(parent, '.plankit'))).toEqual({
      '.': '700',
      '.gitignore': '600',
      sessions: '700',
      'sessions/job-42': '700',
      'sessions/job-42/events.jsonl': '600',
      'sessions/job-42/snapshot.jsonl': '600',
      'sessions/+other': '700',
      'sessions/+other/events.jsonl': '600',
    });
  });

  it('creates every missing parent of a chosen directory 0700', async () => {
    const store = new FileStore({ directory: path.join(parent, 'a', 'b') });
    ok(await store.append('s', 0, events(1)));
    await store.close();
    expect(await modeOf(parent)).toBe('700'); // mkdtemp's own mode: untouched
    expect(await modeOf(path.join(parent, 'a'))).toBe('700');
    expect(await modeOf(path.join(parent, 'a', 'b'))).toBe('700');
  });

  it('closes a sessions folder an older version left open to other users', async () => {
    await mkdir(path.join(parent, 'sessions'), { mode: 0o755 });
    await chmod(path.join(parent, 'sessions'), 0o755);
    const store = new FileStore({ directory: parent });
    ok(await store.append('s', 0, events(1)));
    await store.close();
    expect(await modeOf(path.join(parent, 'sessions'))).toBe('700');
  });

  it('creates the session lock 0700 with its owner file 0600', async () => {
    const folder = path.join(parent, 'sessions', 'locked');
    const lock = (await acquireFileLock(folder, 1_000, true)) as FileLock;
    expect(typeof lock).toBe('object');
    try {
      const found = await modes(folder);
      expect(Object.keys(found)).toHaveLength(3);
      for (const [entry, mode] of Object.entries(found)) {
        expect(mode, entry).toBe(entry.startsWith('lock/owner-') ? '600' : '700');
      }
      expect(await modeOf(path.join(parent, 'sessions'))).toBe('700');
    } finally {
      await lock.release();
    }
  });
});
