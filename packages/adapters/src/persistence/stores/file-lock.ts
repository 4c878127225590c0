import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { readdir, readFile, rename, rm, rmdir, stat, unlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCode } from './file-io.ts';
import { makePrivateFolder, makePrivateFolders, writePrivateFile } from './private-files.ts';

/** A held session lock. */
export interface FileLock {
  /** True when a crashed writer's lock was broken to get this one: its leftovers may remain. */
  readonly recovered: boolean;
  /** Releases the lock; never fails (a folder deleted meanwhile took the lock with it). */
  release(): Promise<void>;
}

/** Who holds a lock, as written in its owner file. */
interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly boot: string;
  readonly ns: string;
  readonly token: string;
}

/** What {@link acquireFileLock} reports when it could not take the lock. */
export type LockFailure = 'folder_missing' | 'timeout';

// Another host's holder refreshes its owner file every HEARTBEAT_MS; one silent for STALE_MS
// is gone. Holders keep a lock for one write and one fsync, so both are generous.
const HEARTBEAT_MS = 2_000;
const STALE_MS = 10_000;
// Boot times estimated from the uptime drift a little; a reboot moves them by far more.
const BOOT_TOLERANCE_S = 60;

/**
 * Tokens this process is using, staged or held: an owner file with our pid and a token not in
 * here was left by an earlier process that had the same pid (a restarted container).
 */
const live = new Set<string>();

function readOr(read: () => string, fallback: string): string {
  try {
    return read().trim();
  } catch {
    return fallback;
  }
}

let identity: Readonly<Pick<Owner, 'pid' | 'host' | 'boot' | 'ns'>> | undefined;

/**
 * What this process writes into its lock owner files, besides a token; read once, on first
 * use rather than at import.
 */
export function lockIdentity(): Readonly<Pick<Owner, 'pid' | 'host' | 'boot' | 'ns'>> {
  identity ??= Object.freeze({
    pid: process.pid,
    host: os.hostname(),
    // Linux gives an exact boot id; elsewhere the boot time (seconds) stands in for it.
    boot: readOr(
      () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'),
      `t${Math.round(Date.now() / 1000 - os.uptime())}`,
    ),
    // Process ids mean something only within one PID namespace (containers have their own).
    ns: readOr(() => readlinkSync('/proc/self/ns/pid'), ''),
  });
  return identity;
}

function sameBoot(boot: string, own: string): boolean | undefined {
  if (boot === own) return true;
  const a = boot.startsWith('t') ? Number(boot.slice(1)) : Number.NaN;
  const b = own.startsWith('t') ? Number(own.slice(1)) : Number.NaN;
  if (Number.isFinite(a) && Number.isFinite(b)) return Math.abs(a - b) <= BOOT_TOLERANCE_S;
  // One exact id and one estimate: different systems sharing the folder; cannot tell.
  return boot.startsWith('t') === own.startsWith('t') ? false : undefined;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): Owner | undefined {
  try {
    const value = JSON.parse(text) as Partial<Owner>;
    if (
      typeof value.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.boot === 'string' &&
      typeof value.ns === 'string' &&
      typeof value.token === 'string'
    ) {
      return value as Owner;
    }
  } catch {}
  return undefined;
}

/** Whether the writer that wrote `owner` is certainly gone. */
function isAbandoned(owner: Owner, refreshedAt: number, now: number): boolean {
  const own = lockIdentity();
  if (owner.host === own.host) {
    const boot = sameBoot(owner.boot, own.boot);
    if (boot === false) return true;
    if (boot === true && owner.ns === own.ns) {
      if (owner.pid === process.pid) return !live.has(owner.token);
      return !processExists(owner.pid);
    }
  }
  return now - refreshedAt > STALE_MS;
}

/**
 * Breaks the lock at `lockDir` if its owner is gone. Removes only that owner's file, then the
 * directory if it is empty, so it can never remove a lock a live writer took meanwhile.
 *
 * @returns `held` while a live writer holds it; `gone` when it vanished or was empty (a
 *   release in progress); `broken` when we removed a dead writer's lock
 */
async function breakIfAbandoned(lockDir: string): Promise<'held' | 'gone' | 'broken'> {
  let entries: string[];
  try {
    entries = await readdir(lockDir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'gone';
    throw error;
  }
  if (entries.length === 0) {
    await rmdir(lockDir).catch(() => {});
    return 'gone';
  }
  const ownerName = entries.find((name) => name.startsWith('owner-'));
  if (ownerName !== undefined) {
    const file = path.join(lockDir, ownerName);
    let owner: Owner | undefined;
    let refreshedAt: number;
    try {
      [owner, refreshedAt] = await Promise.all([
        readFile(file, 'utf8').then(parseOwner),
        stat(file).then((s) => s.mtimeMs),
      ]);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return 'gone';
      throw error;
    }
    // An owner file is complete before its lock is visible, so only a crash of the whole
    // machine can leave one unreadable, and that crash ended its writer too.
    if (owner !== undefined && !isAbandoned(owner, refreshedAt, Date.now())) return 'held';
    await unlink(file).catch(() => {});
  } else {
    // Not something a writer makes: a lock directory holds exactly its owner file.
    await Promise.all(
      entries.map((name) => rm(path.join(lockDir, name), { force: true, recursive: true })),
    );
  }
  await rmdir(lockDir).catch(() => {});
  return 'broken';
}

/**
 * Lock directories prepared once and kept between writes, so that taking a session lock is
 * one rename and releasing it is the rename back, instead of making and removing a directory
 * and its owner file every time. They wait in `home` as `.lock-<token>`, which must be on the
 * same file system as the session folders (a rename cannot cross file systems). Their tokens
 * stay live while the pool keeps them.
 */
export class LockPool {
  /** The folder the idle directories wait in. */
  readonly home: string;
  readonly #idle: string[] = [];
  #closed = false;

  /** @param home - the folder idle directories wait in; made when first needed */
  constructor(home: string) {
    this.home = home;
  }

  /** Where the directory of `token` waits. */
  stagingOf(token: string): string {
    return path.join(this.home, `.lock-${token}`);
  }

  /** An idle token (its directory may since have vanished), or a new one to stage. */
  take(): { readonly token: string; readonly staged: boolean } {
    const idle = this.#idle.pop();
    if (idle !== undefined) return { token: idle, staged: true };
    const token = randomUUID();
    live.add(token);
    return { token, staged: false };
  }

  /** Takes back a token whose directory is staged again. */
  async give(token: string): Promise<void> {
    if (this.#closed) await this.drop(token);
    else this.#idle.push(token);
  }

  /** Forgets a token and removes its directory if it is still waiting. */
  async drop(token: string): Promise<void> {
    live.delete(token);
    await rm(this.stagingOf(token), { recursive: true, force: true }).catch(() => {});
  }

  /**
   * Removes every idle directory, then `home` if nothing else waits there; tokens given back
   * later are dropped.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle.splice(0);
    await Promise.all(idle.map((token) => this.drop(token)));
    await rmdir(this.home).catch(() => {});
  }
}

/**
 * Takes the lock of a session folder: a directory `lock` holding one owner file, created by
 * renaming a directory prepared beside it, or waiting in `pool` (a rename onto a non-empty
 * directory fails, so only one writer can succeed). Waits, with a short random backoff, while
 * a live writer holds it.
 *
 * @param folder - the session folder
 * @param timeoutMs - how long to wait for a live writer
 * @param create - create the folder when missing (appends); otherwise report `folder_missing`
 * @param pool - where prepared directories wait between writes; without it, each lock is
 *   prepared in `folder` and removed on release
 * @returns the lock, or why it was not taken; throws on unexpected file system errors
 */
export async function acquireFileLock(
  folder: string,
  timeoutMs: number,
  create: boolean,
  pool?: LockPool,
): Promise<FileLock | LockFailure> {
  const taken = pool?.take() ?? { token: randomUUID(), staged: false };
  live.add(taken.token);
  const giveUp = async (): Promise<void> => {
    if (pool === undefined) live.delete(taken.token);
    else await pool.give(taken.token);
  };
  try {
    const lock = await takeLock(folder, taken, timeoutMs, create, pool);
    if (typeof lock === 'string') await giveUp();
    return lock;
  } catch (error) {
    if (pool === undefined) live.delete(taken.token);
    else await pool.drop(taken.token);
    throw error;
  }
}

async function takeLock(
  folder: string,
  taken: { readonly token: string; readonly staged: boolean },
  timeoutMs: number,
  create: boolean,
  pool: LockPool | undefined,
): Promise<FileLock | LockFailure> {
  const { token } = taken;
  const owner: Owner = { ...lockIdentity(), token };
  const staging = pool?.stagingOf(token) ?? path.join(folder, `.lock-${token}`);
  const lockDir = path.join(folder, 'lock');
  const ownerFile = path.join(lockDir, `owner-${token}`);
  const deadline = Date.now() + timeoutMs;
  let staged = taken.staged;
  let recovered = false;
  let wait = 1;
  for (let attempt = 0; ; attempt++) {
    // Every path that goes round again passes here, so none can spin past the deadline.
    if (attempt > 0 && Date.now() >= deadline) {
      // A pooled directory stays staged for the next write.
      if (pool === undefined) await rm(staging, { recursive: true, force: true });
      return 'timeout';
    }
    if (!staged) {
      try {
        await makePrivateFolder(staging);
      } catch (error) {
        const reason = errorCode(error);
        if (pool !== undefined && (reason === 'EEXIST' || reason === 'ENOENT')) {
          // Left half-staged by a write that failed, or the pool's folder is new (or was
          // removed by a store closing): stage again from scratch.
          if (reason === 'EEXIST') await rm(staging, { recursive: true, force: true });
          else await makePrivateFolders(pool.home);
          continue;
        }
        if (reason !== 'ENOENT') throw error;
        if (!create) return 'folder_missing';
        // A new session: make its folder, then stage again.
        await makePrivateFolders(folder);
        continue;
      }
      try {
        await writePrivateFile(path.join(staging, `owner-${token}`), JSON.stringify(owner));
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
        // The folder was deleted (renamed away) while we staged: start again.
        if (pool !== undefined) await rm(staging, { recursive: true, force: true });
        continue;
      }
      staged = true;
    }
    try {
      await rename(staging, lockDir);
      break;
    } catch (error) {
      const reason = errorCode(error);
      if (reason === 'ENOENT') {
        // Our staging directory is gone (a pooled one removed by someone), or the session
        // folder was deleted (renamed away, with a staging directory made in it).
        const stagingLeft =
          pool !== undefined &&
          (await stat(staging).then(
            () => true,
            () => false,
          ));
        if (!stagingLeft) {
          staged = false;
          if (pool === undefined && !create) return 'folder_missing';
          continue;
        }
        if (!create) return 'folder_missing';
        await makePrivateFolders(folder);
        continue;
      }
      if (
        reason !== 'ENOTEMPTY' &&
        reason !== 'EEXIST' &&
        reason !== 'EPERM' &&
        reason !== 'EISDIR'
      ) {
        if (pool === undefined) await rm(staging, { recursive: true, force: true });
        throw error;
      }
    }
    const found = await breakIfAbandoned(lockDir);
    if (found !== 'held') {
      if (found === 'broken') recovered = true;
      continue;
    }
    await sleep(Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
  // Set when the owner file vanished while held: the lock was broken, and `lock` may now be
  // another writer's, so release must not move it.
  let lost = false;
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(ownerFile, now, now).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') lost = true;
    });
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    recovered,
    async release(): Promise<void> {
      clearInterval(heartbeat);
      if (pool !== undefined && !lost) {
        try {
          await rename(lockDir, staging);
          await pool.give(token);
          return;
        } catch {
          // The session folder was deleted with the lock in it: fall back to removing it.
        }
      }
      await unlink(ownerFile).catch(() => {});
      if (pool === undefined) live.delete(token);
      else await pool.drop(token);
      await rmdir(lockDir).catch(() => {});
    },
  };
}

/**
 * Removes what crashed writers left in a session folder: temporary files (only lock holders
 * make them, so while we hold the lock every one is garbage) and staging directories whose
 * owner is gone. A staging directory without a readable owner file may be one a live writer
 * is preparing this instant, so it is removed only once it is old.
 */
export async function removeLeftovers(folder: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const file = path.join(folder, name);
    if (name.startsWith('.tmp-')) {
      await rm(file, { force: true });
    } else if (name.startsWith('.lock-')) {
      const token = name.slice('.lock-'.length);
      const [owner, refreshedAt] = await Promise.all([
        readFile(path.join(file, `owner-${token}`), 'utf8').then(parseOwner, () => undefined),
        stat(file).then(
          (s) => s.mtimeMs,
          () => now,
        ),
      ]);
      const abandoned =
        owner === undefined ? now - refreshedAt > STALE_MS : isAbandoned(owner, refreshedAt, now);
      if (abandoned) await rm(file, { recursive: true, force: true });
    }
  }
}
