// What every store worker process does the same way: open the store under test from its
// config, print a line (flushed before the next step), and exit with a message on failure.
import type { SessionStore } from '../session-store.ts';
import type { WorkerStore } from './process-tests.ts';

/** Options the workers pass to the store, on top of where it lives. */
export interface WorkerStoreOptions {
  /** FileStore: how long a write waits for another writer's lock, in ms. */
  readonly lockTimeoutMs?: number;
  /** PostgresStore: connections in its pool. */
  readonly poolSize?: number;
}

/** Opens the FileStore or PostgresStore `target` names; each is imported only when used. */
export async function openWorkerStore(
  target: WorkerStore,
  options: WorkerStoreOptions = {},
): Promise<SessionStore> {
  if (target.kind === 'file') {
    const { FileStore } = await import('../file-store.ts');
    return new FileStore({
      directory: target.directory,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
      groupCommit: target.groupCommit === true,
    });
  }
  const { PostgresStore } = await import('../../postgres/postgres-store.ts');
  return new PostgresStore({
    connectionString: target.url,
    schema: target.schema,
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
  });
}

/** Writes `line` to stdout; resolves once it is flushed, so a kill after it cannot lose it. */
export function print(line: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(`${line}\n`, () => resolve()));
}

/** Reports `message` on stderr and exits with status 1. */
export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
