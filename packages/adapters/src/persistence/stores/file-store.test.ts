import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  appendFile,
  mkdir,
  mkdtemp,
  open as openFile,
  readdir,
  readFile,
  rm,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lockIdentity } from './file-lock.ts';
import { FileStore, type FileStoreOptions } from './file-store.ts';
import {
  byCodePoint,
  describeStoreContract,
  err,
  events,
  ok,
  storeHarness,
} from './testing/store-contract.ts';

async function tempDirectory(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'plankit-file-store-'));
}

/** The contract suite's harness for FileStores in one temporary folder, with `options`. */
function fileStores(options: Omit<FileStoreOptions, 'directory' | 'snapshotSchema'>) {
  return async () => {
    const directory = await tempDirectory();
    return storeHarness(
      (snapshotSchema?: FileStoreOptions['snapshotSchema']) =>
        new FileStore(
          snapshotSchema === undefined
            ? { ...options, directory }
            : { ...options, directory, snapshotSchema },
        ),
      () => rm(directory, { recursive: true, force: true }),
    );
  };
}

describeStoreContract('FileStore', fileStores({}), { sharedStorage: true });
describeStoreContract('FileStore with group commit', fileStores({ groupCommit: true }), {
  sharedStorage: true,
});

describe('FileStore group commit', () => {
  let directory: string;
  let store: FileStore;
  const log = (name: string) => path.join(directory, 'sessions', name, 'events.jsonl');
  const ids = ['g-1', 'g-2', 'g-3', 'g-4', 'g-5'];

  /** The prototype of every FileHandle, FileStore's included: the syncs to watch. */
  async function fileHandlePrototype(): Promise<{ datasync: () => Promise<void> }> {
    const handle = await openFile(path.join(directory, 'probe'), 'w');
    await handle.close();
    return Object.getPrototypeOf(handle) as { datasync: () => Promise<void> };
  }

  beforeEach(async () => {
    directory = await tempDirectory();
    store = new FileStore({ directory, groupCommit: true });
    // First appends create the logs (synced on their own); the grouped ones come after.
    for (const id of ids) ok(await store.append(id, 0, events(1)));
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  /**
   * Holds every sync until `open()`; `fail` picks syncs (numbered from 1) to fail once open.
   * Starts g-1 alone, waits until its sync is issued (and held), then starts the others and
   * waits until they have written: they wait for the next group.
   */
  async function twoGroups(fail: (call: number) => boolean) {
    const proto = await fileHandlePrototype();
    const original = proto.datasync;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const trace: string[] = [];
    let calls = 0;
    const spy = vi.spyOn(proto, 'datasync').mockImplementation(async function (this: unknown) {
      const call = ++calls;
      await gate;
      if (fail(call)) {
        trace.push(`failed ${call}`);
        throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      }
      await original.call(this);
      trace.push(`synced ${call}`);
    });
    const sizes = await Promise.all(ids.map(async (id) => (await readFile(log(id))).length));
    const append = async (id: string) => {
      const result = await store.append(id, 1, events(1, 2));
      trace.push(`${result.ok ? 'acked' : 'rejected'} ${id}`);
      return result;
    };
    const first = append('g-1');
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
    const rest = ids.slice(1).map(append);
    await vi.waitFor(async () => {
      const grown = await Promise.all(
        ids.map(async (id, i) => (await readFile(log(id))).length > (sizes[i] as number)),
      );
      expect(grown).toEqual(ids.map(() => true));
    });
    return { spy, open, trace, results: Promise.all([first, ...rest]) };
  }

  it('acknowledges no append before the syncs of its group have returned', async () => {
    const { spy, open, trace, results } = await twoGroups(() => false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Everything is written, one sync is held and the rest wait for the next group.
    expect(spy).toHaveBeenCalledTimes(1);
    expect(trace).toEqual([]);
    open();
    expect((await results).map(ok)).toEqual(ids.map(() => 2));
    // The second group's four syncs were issued together, after the first group's.
    expect(spy).toHaveBeenCalledTimes(5);
    expect(trace.slice(0, 2)).toEqual(['synced 1', 'acked g-1']);
    const acks = trace.slice(2).filter((line) => line.startsWith('acked'));
    expect(acks).toHaveLength(4);
    // No append of the second group before all four of its syncs returned.
    expect(trace.slice(2, 6).every((line) => line.startsWith('synced'))).toBe(true);
    for (const id of ids) expect(ok(await store.load(id)).version).toBe(2);
  });

  it('fails every append of a group when one sync fails, and changes nothing', async () => {
    const before = await Promise.all(ids.map((id) => readFile(log(id))));
    const { open, results } = await twoGroups((call) => call === 3);
    open();
    const [first, ...rest] = await results;
    expect(ok(first as never)).toBe(2);
    for (const result of rest) {
      expect(err(result, 'io').message).toMatch(/EIO|commit group failed/);
    }
    vi.restoreAllMocks();
    for (const [i, id] of ids.entries()) {
      const loaded = ok(await store.load(id));
      expect([id, loaded.version, loaded.issues]).toEqual([id, i === 0 ? 2 : 1, []]);
      if (i > 0) expect((await readFile(log(id))).equals(before[i] as Buffer)).toBe(true);
    }
    // The failed appends can be made again.
    for (const id of ids.slice(1)) expect(ok(await store.append(id, 1, events(1, 2)))).toBe(2);
  });

  it('refuses bad groupCommit options', () => {
    for (const groupCommit of [
      'yes',
      1,
      null,
      [],
      { maxDelayMs: -1 },
      { maxDelayMs: Number.NaN },
      { maxDelayMs: 5_000 },
      { maxDelayMs: '5' },
      { delay: 5 },
    ]) {
      expect(() => new FileStore({ directory, groupCommit } as never), String(groupCommit)).toThrow(
        expect.objectContaining({ code: 'argument_invalid' }),
      );
    }
    expect(() => new FileStore({ directory, groupCommit: { maxDelayMs: 2 } })).not.toThrow();
    expect(() => new FileStore({ directory, groupCommit: false })).not.toThrow();
  });
});

describe('FileStore on disk', () => {
  let directory: string;
  let store: FileStore;
  const folder = (name: string) => path.join(directory, 'sessions', name);
  const log = (name: string) => path.join(folder(name), 'events.jsonl');
  const snapshotFile = (name: string) => path.join(folder(name), 'snapshot.jsonl');

  beforeEach(async () => {
    directory = await tempDirectory();
    // The default lock timeout: a first write makes its session's folder while it takes the
    // lock, which a busy machine can stretch past a short timeout.
    store = new FileStore({ directory });
  });

  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps one folder per session: a JSONL log and a snapshot, and no leftovers', async () => {
    ok(await store.append('job-42', 0, events(2)));
    ok(await store.append('job-42', 2, events(1, 3)));
    ok(await store.saveSnapshot('job-42', { version: 3, data: { state: 'x' } }));
    expect((await readdir(folder('job-42'))).sort()).toEqual(['events.jsonl', 'snapshot.jsonl']);
    const lines = (await readFile(log('job-42'), 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        seq: 1,
        start: 1,
        end: 2,
        type: 'test.Event',
        at: events(1)[0]?.at,
        data: events(1)[0]?.data,
      },
      {
        seq: 2,
        start: 1,
        end: 2,
        type: 'test.Event',
        at: events(2)[1]?.at,
        data: events(2)[1]?.data,
      },
      {
        seq: 3,
        start: 3,
        end: 3,
        type: 'test.Event',
        at: events(1, 3)[0]?.at,
        data: events(1, 3)[0]?.data,
      },
    ]);
    const [header, data, end] = (await readFile(snapshotFile('job-42'), 'utf8')).split('\n');
    expect(JSON.parse(header as string)).toMatchObject({
      format: 'plankit.file-snapshot',
      formatVersion: 1,
      sessionId: 'job-42',
      version: 3,
      schemaVersion: 1,
      offset: (await readFile(log('job-42'))).length,
    });
    expect(JSON.parse(data as string)).toEqual({ state: 'x' });
    expect(end).toBe('');
  });

  it('names folders so case-insensitive file systems keep ids apart', async () => {
    const ids = ['job-42', 'Job-42', 'JOB-42', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'user_7:goal_3'];
    for (const id of ids) ok(await store.append(id, 0, events(1)));
    const names = await readdir(path.join(directory, 'sessions'));
    expect(names.sort()).toEqual(
      ['job-42', '+job-42', '=job-42', '=01arz3ndektsv4rrffq69g5fav', 'user_7:goal_3'].sort(),
    );
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(ids.length);
  });

  it('keeps host ids in readable, escaped folders, and finds folders the old id rule made', async () => {
    const ids = ['a@b.c', 'org/chat', 'q1s+/A==', '_V1StGXR8-', '.hidden', 'ünï'];
    for (const id of ids) ok(await store.append(id, 0, events(1)));
    expect((await readdir(path.join(directory, 'sessions'))).sort()).toEqual(
      [
        'a%40b.c',
        'org%2fchat',
        'q1s%2b%2f+a%3d%3d',
        '=_v1s+tgxr8-',
        '%2ehidden',
        '%c3%bcn%c3%af',
      ].sort(),
    );
    // A folder an earlier version wrote (its log copied in by hand) is found under its old name.
    const lines = await readFile(log('a%40b.c'), 'utf8');
    for (const old of ['+job-42', '=01arz3ndektsv4rrffq69g5fav', 'user_7:goal_3']) {
      await mkdir(folder(old));
      await writeFile(log(old), lines);
    }
    for (const id of ['Job-42', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'user_7:goal_3']) {
      expect(ok(await store.load(id)).version, id).toBe(1);
    }
    expect(ok(await store.list())).toEqual(
      byCodePoint([...ids, 'Job-42', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'user_7:goal_3']),
    );
  });

  it('hashes the folder of a long id, keeps the id beside the log, and detects a collision', async () => {
    const id = `${'org/'.repeat(60)}chat`;
    ok(await store.append(id, 0, events(2)));
    ok(await store.saveSnapshot(id, { version: 1, data: { s: 1 } }));
    const [name] = await readdir(path.join(directory, 'sessions'));
    expect(name).toMatch(/^(?:org%2f){20}~[0-9a-f]{40}$/);
    expect((await readdir(folder(name as string))).sort()).toEqual([
      'events.jsonl',
      'session-id',
      'snapshot.jsonl',
    ]);
    expect(await readFile(path.join(folder(name as string), 'session-id'), 'utf8')).toBe(id);
    expect(ok(await store.list())).toEqual([id]);
    const reopened = new FileStore({ directory });
    expect(ok(await reopened.load(id)).version).toBe(2);
    await reopened.close();
    // Another id in the folder (a hash collision, or a hand edit): refused, nothing written.
    await writeFile(path.join(folder(name as string), 'session-id'), `${id}x`);
    expect(err(await store.load(id), 'io').message).toMatch(/holds another session/);
    err(await store.append(id, 2, events(1, 3)), 'io');
    err(await store.saveSnapshot(id, { version: 2, data: {} }), 'io');
    err(await store.delete(id), 'io');
    expect(ok(await store.list())).toEqual([]);
    await writeFile(path.join(folder(name as string), 'session-id'), id);
    expect(ok(await store.load(id)).version).toBe(2);
    expect(ok(await store.delete(id))).toBe(true);
    expect(await readdir(path.join(directory, 'sessions'))).toEqual([]);
  });

  it('keeps ids that differ only in case apart in escaped and hashed folders too', async () => {
    const ids = ['a@b.c', 'A@B.C', 'A@b.c', `${'é/'.repeat(100)}x`, `${'é/'.repeat(100)}X`];
    for (const [i, id] of ids.entries()) ok(await store.append(id, 0, events(i + 1)));
    for (const [i, id] of ids.entries()) expect(ok(await store.load(id)).version).toBe(i + 1);
    const names = await readdir(path.join(directory, 'sessions'));
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(ids.length);
  });

  it('lists only its own folders that hold a log', async () => {
    ok(await store.append('real', 0, events(1)));
    const sessions = path.join(directory, 'sessions');
    await mkdir(path.join(sessions, 'empty'));
    await mkdir(path.join(sessions, 'Upper'));
    await writeFile(path.join(sessions, 'Upper', 'events.jsonl'), '{}\n');
    await mkdir(path.join(sessions, '.trash-1'));
    await writeFile(path.join(sessions, 'README'), 'not a session');
    await mkdir(path.join(sessions, 'zero'));
    await writeFile(path.join(sessions, 'zero', 'events.jsonl'), '');
    expect(ok(await store.list())).toEqual(['real']);
  });

  it('creates .plankit with a .gitignore in the working directory by default', async () => {
    const cwd = process.cwd();
    process.chdir(directory);
    let defaulted: FileStore;
    try {
      defaulted = new FileStore();
    } finally {
      process.chdir(cwd);
    }
    expect(defaulted.directory).toBe(path.join(directory, '.plankit'));
    ok(await defaulted.append('s', 0, events(1)));
    expect(await readFile(path.join(directory, '.plankit', '.gitignore'), 'utf8')).toContain('*');
    await defaulted.close();
    // A directory the host chose gets no .gitignore.
    ok(await store.append('s', 0, events(1)));
    expect(existsSync(path.join(directory, '.gitignore'))).toBe(false);
  });

  it('refuses bad options', () => {
    for (const options of [
      { directory: '' },
      { directory: 3 },
      { lockTimeoutMs: -1 },
      { lockTimeoutMs: Number.NaN },
      { dir: 'x' },
    ]) {
      expect(() => new FileStore(options as never), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: 'argument_invalid' }),
      );
    }
  });

  it('reports file system failures as io', async () => {
    const file = path.join(directory, 'a-file');
    await writeFile(file, 'x');
    const blocked = new FileStore({ directory: path.join(file, 'store') });
    const error = err(await blocked.append('s', 0, events(1)), 'io');
    expect(error.message).toContain('FileStore could not append to session s');
    expect(error.cause).toBeInstanceOf(Error);
    err(await blocked.load('s'), 'io');
    err(await blocked.list(), 'io');
  });

  describe('the known tail', () => {
    const sequences = async (id: string) =>
      ok(await store.load(id)).events.map((event) => event.sequence);

    it('notices appends by another FileStore on the same folder', async () => {
      const other = new FileStore({ directory });
      try {
        ok(await store.append('k', 0, events(1)));
        ok(await other.append('k', 1, events(2, 2)));
        // Our last append left version 1; the log moved on to 3 behind our back.
        err(await store.append('k', 1, events(1, 2)), 'conflict');
        expect(ok(await store.append('k', 3, events(1, 4)))).toBe(4);
        err(await other.append('k', 3, events(1, 4)), 'conflict');
        expect(ok(await other.append('k', 4, events(1, 5)))).toBe(5);
      } finally {
        await other.close();
      }
      expect(await sequences('k')).toEqual([1, 2, 3, 4, 5]);
    });

    it('notices a session deleted and started again elsewhere', async () => {
      const other = new FileStore({ directory });
      try {
        ok(await store.append('k', 0, events(3)));
        expect(ok(await other.delete('k'))).toBe(true);
        ok(await other.append('k', 0, events(1, 10)));
        err(await store.append('k', 3, events(1, 4)), 'conflict');
        expect(ok(await store.append('k', 1, events(1, 11)))).toBe(2);
      } finally {
        await other.close();
      }
      expect(ok(await store.load('k')).events.map((event) => event.data)).toEqual(
        [...events(1, 10), ...events(1, 11)].map((event) => event.data),
      );
    });

    it('notices an edit that keeps the size: the tail is read again', async () => {
      ok(await store.append('k', 0, events(1)));
      ok(await store.append('k', 1, events(1, 2)));
      // Damage the last append in place, same length: it becomes a torn tail, version 1.
      const text = await readFile(log('k'), 'utf8');
      const damaged = `${text.slice(0, text.lastIndexOf('{"seq":2'))}${'\u0000'.repeat(
        text.length - text.lastIndexOf('{"seq":2') - 1,
      )}\n`;
      expect(Buffer.byteLength(damaged)).toBe(Buffer.byteLength(text));
      await writeFile(log('k'), damaged);
      // Clock ticks can be coarser than two writes: move the mtime so the edit shows.
      const past = new Date(Date.now() - 60_000);
      await utimes(log('k'), past, past);
      err(await store.append('k', 2, events(1, 3)), 'conflict');
      expect(ok(await store.append('k', 1, events(1, 3)))).toBe(2);
      expect(await sequences('k')).toEqual([1, 2]);
      expect(ok(await store.load('k')).events[1]?.data).toEqual(events(1, 3)[0]?.data);
    });

    it('notices a log truncated to an earlier append', async () => {
      ok(await store.append('k', 0, events(2)));
      const first = (await readFile(log('k'))).length;
      ok(await store.append('k', 2, events(1, 3)));
      await truncate(log('k'), first);
      err(await store.append('k', 3, events(1, 4)), 'conflict');
      expect(ok(await store.append('k', 2, events(1, 4)))).toBe(3);
      expect(await sequences('k')).toEqual([1, 2, 3]);
    });

    it('keeps working past the open-log limit (256), closing the least recently used', async () => {
      const ids = Array.from({ length: 262 }, (_, i) => `many-${i}`);
      for (const id of ids) ok(await store.append(id, 0, events(1)));
      for (const id of ids.slice(0, 5)) expect(ok(await store.append(id, 1, events(1, 2)))).toBe(2);
      for (const id of ids.slice(-5)) expect(ok(await store.append(id, 1, events(1, 2)))).toBe(2);
      expect(await sequences('many-0')).toEqual([1, 2]);
      expect(await sequences('many-261')).toEqual([1, 2]);
    }, 30_000);

    it('is dropped by delete: the next append starts a new log', async () => {
      ok(await store.append('k', 0, events(2)));
      expect(ok(await store.delete('k'))).toBe(true);
      err(await store.append('k', 2, events(1, 3)), 'conflict');
      expect(ok(await store.append('k', 0, events(1, 3)))).toBe(1);
      expect(await sequences('k')).toEqual([1]);
    });
  });

  describe('a failed write or sync', () => {
    async function handlePrototype(): Promise<Record<string, (...args: never[]) => unknown>> {
      const handle = await openFile(path.join(directory, 'probe'), 'w');
      await handle.close();
      return Object.getPrototypeOf(handle) as Record<string, (...args: never[]) => unknown>;
    }

    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('leaves the log as it was when the sync fails', async () => {
      ok(await store.append('f', 0, events(2)));
      const before = await readFile(log('f'));
      const proto = await handlePrototype();
      vi.spyOn(proto, 'datasync').mockRejectedValueOnce(
        Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }),
      );
      expect(err(await store.append('f', 2, events(1, 3)), 'io').message).toContain('EIO');
      expect((await readFile(log('f'))).equals(before)).toBe(true);
      expect(ok(await store.load('f'))).toMatchObject({ version: 2, issues: [] });
      expect(ok(await store.append('f', 2, events(1, 3)))).toBe(3);
    });

    it('leaves the log as it was when a write stops short (a full disk)', async () => {
      ok(await store.append('f', 0, events(2)));
      const before = await readFile(log('f'));
      const proto = await handlePrototype();
      const original = proto['write'] as (...args: unknown[]) => Promise<unknown>;
      vi.spyOn(proto, 'write').mockImplementationOnce(async function (
        this: unknown,
        buffer: Buffer,
        offset: number,
        _length: number,
        position: number,
      ) {
        await original.call(this, buffer, offset, 10, position);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
        });
      } as never);
      expect(err(await store.append('f', 2, events(1, 3)), 'io').message).toContain('ENOSPC');
      expect((await readFile(log('f'))).equals(before)).toBe(true);
      expect(ok(await store.load('f'))).toMatchObject({ version: 2, issues: [] });
    });

    it('leaves no temporary file behind when a new file cannot be written (a full disk)', async () => {
      ok(await store.append('f', 0, events(2)));
      const proto = await handlePrototype();
      const full = () =>
        Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const original = proto['writeFile'] as (...args: unknown[]) => Promise<unknown>;
      // Writes what fits, then fails: a snapshot, a new log, a long id's session-id file.
      vi.spyOn(proto, 'writeFile').mockImplementation(async function (
        this: unknown,
        data: string | Buffer,
      ) {
        await original.call(this, Buffer.from(data).subarray(0, 10));
        throw full();
      } as never);
      const long = 'L'.repeat(200);
      expect(
        err(await store.saveSnapshot('f', { version: 2, data: { x: 1 } }), 'io').message,
      ).toContain('ENOSPC');
      err(await store.append('g', 0, events(1)), 'io');
      err(await store.append(long, 0, events(1)), 'io');
      vi.restoreAllMocks();
      const sessions = path.join(directory, 'sessions');
      for (const folder of await readdir(sessions)) {
        const left = (await readdir(path.join(sessions, folder))).filter((name) =>
          name.startsWith('.tmp-'),
        );
        expect(left, folder).toEqual([]);
      }
      expect(ok(await store.load('f'))).toMatchObject({ version: 2, snapshot: null, issues: [] });
      expect(ok(await store.append(long, 0, events(1)))).toBe(1);
    });
  });

  describe('the lock folders kept between writes', () => {
    const locks = () => path.join(directory, 'locks');

    it('reuses one prepared lock for one writer, and removes it on close', async () => {
      for (let v = 0; v < 5; v++) ok(await store.append('p', v, events(1, v + 1)));
      ok(await store.saveSnapshot('p', { version: 5, data: {} }));
      const waiting = await readdir(locks());
      expect(waiting).toHaveLength(1);
      expect(waiting[0]).toMatch(/^\.lock-/);
      expect(await readdir(folder('p'))).toEqual(['events.jsonl', 'snapshot.jsonl']);
      await store.close();
      expect(existsSync(locks())).toBe(false);
    });

    it('survives its prepared lock being removed, and cleans up after a crashed process', async () => {
      ok(await store.append('p', 0, events(1)));
      await rm(locks(), { recursive: true });
      expect(ok(await store.append('p', 1, events(1, 2)))).toBe(2);
      // A dead process's prepared lock: removed by the next store opened on the folder.
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
      const token = randomUUID();
      const left = path.join(locks(), `.lock-${token}`);
      await mkdir(left, { recursive: true });
      await writeFile(
        path.join(left, `owner-${token}`),
        JSON.stringify({ ...lockIdentity(), pid: Number(dead.stdout.toString()), token }),
      );
      const next = new FileStore({ directory });
      try {
        ok(await next.append('q', 0, events(1)));
        expect(existsSync(left)).toBe(false);
      } finally {
        await next.close();
      }
    });
  });

  describe('a torn tail', () => {
    beforeEach(async () => {
      ok(await store.append('t', 0, events(3)));
    });

    const cases: [string, () => string][] = [
      [
        'an incomplete last line',
        () => '{"seq":4,"start":4,"end":4,"type":"test.Event","at":1,"da',
      ],
      ['a last line that does not parse', () => '\u0000\u0000\u0000\u0000\n'],
      [
        'an append missing its last line',
        () => '{"seq":4,"start":4,"end":5,"type":"x","at":1,"data":4}\n',
      ],
      [
        'an append with a damaged line before its last',
        () =>
          '{"seq":4,"start":4,"end":6,"type":"x","at":1,"data":4}\n\u0000\u0000\n{"seq":6,"start":4,"end":6,"type":"x","at":1,"data":6}\n',
      ],
    ];
    for (const [what, tail] of cases) {
      it(`is ignored and reported: ${what}; the next append cuts it off`, async () => {
        const clean = await readFile(log('t'));
        await appendFile(log('t'), tail());
        const loaded = ok(await store.load('t'));
        expect(loaded.version).toBe(3);
        expect(loaded.events).toHaveLength(3);
        expect(loaded.issues).toEqual([
          { code: 'torn_tail', message: expect.stringContaining('never acknowledged') },
        ]);
        err(await store.append('t', 4, events(1, 4)), 'conflict');
        expect(ok(await store.append('t', 3, events(1, 4)))).toBe(4);
        const repaired = await readFile(log('t'));
        expect(repaired.subarray(0, clean.length).equals(clean)).toBe(true);
        const after = ok(await store.load('t'));
        expect(after.issues).toEqual([]);
        expect(after.events.map((event) => event.sequence)).toEqual([1, 2, 3, 4]);
      });
    }

    it('drops the whole append when a crash truncated the file mid-line', async () => {
      ok(await store.append('t', 3, events(2, 4)));
      const size = (await readFile(log('t'))).length;
      await truncate(log('t'), size - 10);
      const loaded = ok(await store.load('t'));
      // Events 4 and 5 were one append: it is all or nothing.
      expect(loaded.version).toBe(3);
      expect(loaded.issues.map((issue) => issue.code)).toEqual(['torn_tail']);
    });

    it('is not how damage before acknowledged events is treated: that is corrupt', async () => {
      ok(await store.append('t', 3, events(1, 4)));
      const lines = (await readFile(log('t'), 'utf8')).split('\n');
      lines[1] = '{"seq":2,"start":1,"end":3,"type":"test.Event","at":1,"data":{"n":2}';
      await writeFile(log('t'), lines.join('\n'));
      const error = err(await store.load('t'), 'corrupt');
      // The file, not only the store's folder: a session's folder name is an encoding of its id.
      expect(error.message).toContain(log('t'));
      expect(error.message).toContain('cannot be read past event 0');
      expect(error.message).toContain('before event 4');
      // An append reads only the end of the log, which is sound; the damage stays reported.
      expect(ok(await store.append('t', 4, events(1, 5)))).toBe(5);
      err(await store.load('t'), 'corrupt');
    });

    it('is corrupt when events are out of sequence', async () => {
      const lines = (await readFile(log('t'), 'utf8')).split('\n');
      [lines[0], lines[1]] = [lines[1] as string, lines[0] as string];
      await writeFile(log('t'), lines.join('\n'));
      err(await store.load('t'), 'corrupt');
    });

    it('is corrupt, not torn, when a damaged line comes before the last complete append', async () => {
      ok(await store.append('t', 3, events(1, 4)));
      const lines = (await readFile(log('t'), 'utf8')).split('\n');
      lines.splice(3, 0, '');
      await writeFile(log('t'), lines.join('\n'));
      // Event 4 was acknowledged: a load must not call it torn and give version 3, which an
      // append (reading the end of the log) would contradict.
      err(await store.load('t'), 'corrupt');
    });

    it('is corrupt when an acknowledged line is not valid UTF-8, never read as U+FFFD', async () => {
      ok(await store.append('t', 3, events(1, 4)));
      const bytes = await readFile(log('t'));
      bytes[bytes.indexOf('event 1')] = 0xff;
      await writeFile(log('t'), bytes);
      err(await store.load('t'), 'corrupt');
    });

    it("is corrupt when an acknowledged event's time is not a finite number", async () => {
      ok(await store.append('t', 3, events(1, 4)));
      const text = await readFile(log('t'), 'utf8');
      await writeFile(log('t'), text.replace(/"at":\d+/, '"at":1e999'));
      err(await store.load('t'), 'corrupt');
    });

    it('of a log holding nothing is an absent session', async () => {
      await writeFile(log('t'), '');
      err(await store.load('t'), 'not_found');
      expect(ok(await store.list())).toEqual([]);
      expect(ok(await store.append('t', 0, events(1)))).toBe(1);
    });
  });

  it('names the log when a folder stands in its place', async () => {
    ok(await store.append('d', 0, events(1)));
    await rm(log('d'));
    await mkdir(log('d'));
    for (const failed of [
      await store.load('d'),
      await store.saveSnapshot('d', { version: 1, data: {} }),
    ]) {
      expect(err(failed, 'io').message).toContain(`${log('d')} is not a file`);
    }
    err(await store.append('d', 1, events(1, 2)), 'io');
  });

  describe('a damaged snapshot', () => {
    beforeEach(async () => {
      ok(await store.append('s', 0, events(4)));
      ok(await store.saveSnapshot('s', { version: 3, data: { upTo: 3, text: 'abcdef' } }));
    });

    const damage: [string, (bytes: Buffer) => Buffer | string][] = [
      ['malformed JSON', () => '{not json'],
      ['truncated', (bytes) => bytes.subarray(0, bytes.length - 5)],
      ['empty', () => ''],
      [
        'a flipped byte',
        (bytes) => Buffer.from(bytes.toString('utf8').replace('abcdef', 'abcdeF')),
      ],
      [
        'another session',
        (bytes) =>
          Buffer.from(bytes.toString('utf8').replace('"sessionId":"s"', '"sessionId":"t"')),
      ],
      [
        'an unknown format version',
        (bytes) =>
          Buffer.from(bytes.toString('utf8').replace('"formatVersion":1', '"formatVersion":2')),
      ],
      [
        'a version ahead of the log',
        (bytes) => Buffer.from(bytes.toString('utf8').replace('"version":3', '"version":9')),
      ],
    ];
    for (const [what, change] of damage) {
      it(`falls back to the log: ${what}`, async () => {
        await writeFile(snapshotFile('s'), change(await readFile(snapshotFile('s'))));
        const loaded = ok(await store.load('s'));
        expect(loaded.snapshot).toBeNull();
        expect(loaded.events.map((event) => event.sequence)).toEqual([1, 2, 3, 4]);
        expect(loaded.issues).toEqual([
          { code: 'snapshot_corrupt', message: expect.stringContaining('read from its log') },
        ]);
        // A new snapshot replaces the damaged one.
        expect(ok(await store.saveSnapshot('s', { version: 2, data: {} }))).toBe(true);
        expect(ok(await store.load('s')).issues).toEqual([]);
      });
    }

    it('falls back to the log when a folder stands in its place, and replaces the folder', async () => {
      await rm(snapshotFile('s'));
      await mkdir(path.join(snapshotFile('s'), 'inner'), { recursive: true });
      const loaded = ok(await store.load('s'));
      expect(loaded.snapshot).toBeNull();
      expect(loaded.events.map((event) => event.sequence)).toEqual([1, 2, 3, 4]);
      expect(loaded.issues).toEqual([
        { code: 'snapshot_corrupt', message: expect.stringContaining('a folder, not a file') },
      ]);
      expect(ok(await store.saveSnapshot('s', { version: 2, data: {} }))).toBe(true);
      expect(ok(await store.load('s')).snapshot?.version).toBe(2);
    });

    it('reads the whole log when its recorded offset is wrong', async () => {
      const text = await readFile(snapshotFile('s'), 'utf8');
      for (const offset of [1, 5, 10_000]) {
        await writeFile(
          snapshotFile('s'),
          text.replace(/"offset":(null|\d+)/, `"offset":${offset}`),
        );
        const loaded = ok(await store.load('s'));
        expect(loaded.snapshot?.version).toBe(3);
        expect(loaded.events.map((event) => event.sequence)).toEqual([4]);
        expect(loaded.issues).toEqual([]);
      }
    });
  });

  describe('the session lock', () => {
    // A live holder is waited for the whole timeout: short here, where locks are held on
    // purpose (each test makes the session's folder before its first write).
    beforeEach(async () => {
      await store.close();
      store = new FileStore({ directory, lockTimeoutMs: 200 });
    });

    const owner = (fields: Record<string, unknown>) =>
      JSON.stringify({ ...lockIdentity(), token: randomUUID(), ...fields });

    async function holdLock(content: string, age = 0): Promise<string> {
      const lockDir = path.join(folder('l'), 'lock');
      await mkdir(lockDir, { recursive: true });
      const file = path.join(lockDir, `owner-${randomUUID()}`);
      await writeFile(file, content);
      if (age > 0) {
        const then = new Date(Date.now() - age);
        await utimes(file, then, then);
      }
      // A leftover of the crashed holder, which the next writer removes.
      await writeFile(path.join(folder('l'), '.tmp-crashed.jsonl'), 'partial');
      return lockDir;
    }

    /** A process id that was just in use and is now free. */
    function deadPid(): number {
      const child = spawnSync(process.execPath, [
        '-e',
        'process.stdout.write(String(process.pid))',
      ]);
      return Number(child.stdout.toString());
    }

    it('is broken when its holder on this machine is dead', async () => {
      await holdLock(owner({ pid: deadPid() }));
      expect(ok(await store.append('l', 0, events(1)))).toBe(1);
      expect(await readdir(folder('l'))).toEqual(['events.jsonl']);
    });

    it('is broken when it was written by an earlier process with our pid', async () => {
      await holdLock(owner({}));
      expect(ok(await store.append('l', 0, events(1)))).toBe(1);
    });

    it('is broken when unreadable, empty, or from an earlier boot', async () => {
      await holdLock('{"pid":');
      expect(ok(await store.append('l', 0, events(1)))).toBe(1);
      const earlier = lockIdentity().boot.startsWith('t') ? 't1' : randomUUID();
      await holdLock(owner({ pid: process.ppid, boot: earlier }));
      expect(ok(await store.append('l', 1, events(1, 2)))).toBe(2);
      await mkdir(path.join(folder('l'), 'lock'));
      expect(ok(await store.append('l', 2, events(1, 3)))).toBe(3);
    });

    it('is broken when another host stopped refreshing it, and waited for otherwise', async () => {
      await holdLock(owner({ host: 'elsewhere', pid: 1 }), 60_000);
      expect(ok(await store.append('l', 0, events(1)))).toBe(1);
      const lockDir = await holdLock(owner({ host: 'elsewhere', pid: 1 }));
      const busy = err(await store.append('l', 1, events(1, 2)), 'busy');
      expect(busy.message).toContain('200 ms');
      expect(busy.message).toContain(lockDir);
      err(await store.saveSnapshot('l', { version: 1, data: {} }), 'busy');
      err(await store.delete('l'), 'busy');
      await rm(lockDir, { recursive: true });
      expect(ok(await store.append('l', 1, events(1, 2)))).toBe(2);
    });

    it('is waited for while a live process on this machine holds it', async () => {
      await holdLock(owner({ pid: process.ppid }));
      err(await store.append('l', 0, events(1)), 'busy');
      expect(existsSync(log('l'))).toBe(false);
    });
  });
});
