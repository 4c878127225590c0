import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { PostgresStore } from '../../postgres/postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
} from '../../postgres/testing/postgres-url.ts';
import { FileStore } from '../file-store.ts';
import type { SessionStore } from '../session-store.ts';
import type { WorkerStore } from './process-tests.ts';

// Worker processes start, write, die and start again: far slower than an in-process test.
const TIMEOUT_MS = 60_000;

/**
 * One `describe` per store that worker processes can share, FileStore in a fresh temporary
 * folder (named after `folderPrefix`) and PostgresStore in a fresh schema (skipped without a
 * server), each running `check` once, as the test `name`, with the store this process holds
 * and where the workers open the same one.
 */
export function describeProcessStores(
  name: string,
  folderPrefix: string,
  check: (store: SessionStore, target: WorkerStore) => Promise<void>,
): void {
  describe('through FileStore', () => {
    let directory: string;
    let store: FileStore;

    beforeEach(async () => {
      directory = await mkdtemp(path.join(os.tmpdir(), folderPrefix));
      store = new FileStore({ directory });
    });

    afterEach(async () => {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    });

    it(name, () => check(store, { kind: 'file', directory }), TIMEOUT_MS);
  });

  describe.skipIf(POSTGRES_URL === undefined)(
    `through PostgresStore${SKIPPED_WITHOUT_SERVER}`,
    () => {
      let schema: string;
      let store: PostgresStore;

      beforeEach(() => {
        schema = freshSchema();
        store = new PostgresStore({ connectionString: POSTGRES_URL, schema });
      });

      afterEach(async () => {
        await store.close();
        await dropSchema(schema);
      });

      it(
        name,
        () => check(store, { kind: 'postgres', url: POSTGRES_URL as string, schema }),
        TIMEOUT_MS,
      );
    },
  );
}
