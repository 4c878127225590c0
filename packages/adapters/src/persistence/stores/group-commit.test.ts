import type { BigIntStats } from 'node:fs';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { GroupCommit, type SyncTarget, syncAppend } from './group-commit.ts';

/** A file whose syncs wait until the test lets them finish, or fail. */
function fakeFile(name: string, log: string[]) {
  let release: (() => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  let size = 100;
  const file: SyncTarget = {
    datasync: () =>
      new Promise<void>((resolve, reject) => {
        log.push(`sync ${name}`);
        release = () => {
          log.push(`synced ${name}`);
          resolve();
        };
        fail = reject;
      }),
    stat: (async () => ({ size: BigInt(size) }) as BigIntStats) as SyncTarget['stat'],
    truncate: async (length?: number) => {
      log.push(`truncate ${name} ${length}`);
      size = length ?? 0;
    },
  };
  return {
    file,
    release: () => release?.(),
    fail: (error: Error) => fail?.(error),
    size: () => size,
  };
}

const settled = async <T>(promise: Promise<T>, log: string[], name: string) => {
  try {
    await promise;
    log.push(`acked ${name}`);
  } catch (error) {
    log.push(`rejected ${name}: ${(error as Error).message}`);
  }
};

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Appends to files `a` and `b` (50 and 60 bytes) synced as one group, logged as they go. */
function twoAppends() {
  const log: string[] = [];
  const group = new GroupCommit(0);
  const a = fakeFile('a', log);
  const b = fakeFile('b', log);
  const done = Promise.all([
    settled(group.sync(a.file, 50), log, 'a'),
    settled(group.sync(b.file, 60), log, 'b'),
  ]);
  return { log, a, b, done };
}

describe('GroupCommit', () => {
  it('acknowledges no append before every sync of its group has returned', async () => {
    const { log, a, b, done } = twoAppends();
    await turn();
    // Both syncs were issued together, and nothing is acknowledged yet.
    expect(log).toEqual(['sync a', 'sync b']);
    a.release();
    await turn();
    expect(log).toEqual(['sync a', 'sync b', 'synced a']);
    b.release();
    await done;
    expect(log).toEqual(['sync a', 'sync b', 'synced a', 'synced b', 'acked a', 'acked b']);
  });

  it('collects the next group while one syncs', async () => {
    const log: string[] = [];
    const group = new GroupCommit(0);
    const [a, b, c] = ['a', 'b', 'c'].map((name) => fakeFile(name, log)) as [
      ReturnType<typeof fakeFile>,
      ReturnType<typeof fakeFile>,
      ReturnType<typeof fakeFile>,
    ];
    const first = settled(group.sync(a.file, 0), log, 'a');
    await turn();
    const rest = [
      settled(group.sync(b.file, 0), log, 'b'),
      settled(group.sync(c.file, 0), log, 'c'),
    ];
    await turn();
    expect(log).toEqual(['sync a']);
    a.release();
    await first;
    await turn();
    expect(log).toEqual(['sync a', 'synced a', 'acked a', 'sync b', 'sync c']);
    b.release();
    c.release();
    await Promise.all(rest);
    expect(log.slice(-2)).toEqual(['acked b', 'acked c']);
  });

  // On the fake clock, so a busy machine cannot stretch the 5 ms past the 30 ms window.
  it('waits maxDelayMs for more appends before syncing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const log: string[] = [];
    const group = new GroupCommit(30);
    const a = fakeFile('a', log);
    const b = fakeFile('b', log);
    const done = [settled(group.sync(a.file, 0), log, 'a')];
    await vi.advanceTimersByTimeAsync(5);
    done.push(settled(group.sync(b.file, 0), log, 'b'));
    await vi.advanceTimersByTimeAsync(24);
    await turn();
    expect(log).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await turn();
    expect(log).toEqual(['sync a', 'sync b']);
    a.release();
    b.release();
    await Promise.all(done);
  });

  it('fails every append of a group when one sync fails, and cuts every file back', async () => {
    const { log, a, b, done } = twoAppends();
    await turn();
    a.release();
    b.fail(new Error('EIO: i/o error, fdatasync'));
    // The undo syncs the truncation too: let those through.
    for (let i = 0; i < 5; i++) {
      await turn();
      a.release();
      b.release();
    }
    await done;
    expect(a.size()).toBe(50);
    expect(b.size()).toBe(60);
    expect(log).toContain('rejected b: EIO: i/o error, fdatasync');
    expect(log).toContain(
      'rejected a: a sync in its commit group failed (EIO: i/o error, fdatasync); no append of the group was kept',
    );
    expect(log.filter((line) => line.startsWith('acked'))).toEqual([]);
  });
});

describe('syncAppend', () => {
  it('cuts the append off and rethrows when the sync fails', async () => {
    const log: string[] = [];
    const a = fakeFile('a', log);
    const done = syncAppend(a.file, 42);
    a.fail(new Error('EIO'));
    await turn();
    a.release();
    await expect(done).rejects.toThrow('EIO');
    expect(a.size()).toBe(42);
  });
});
