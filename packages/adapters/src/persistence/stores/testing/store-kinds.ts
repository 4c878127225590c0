import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PostgresStore } from '../../postgres/postgres-store.ts';
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  SKIPPED_WITHOUT_SERVER,
} from '../../postgres/testing/postgres-url.ts';
import { FileStore } from '../file-store.ts';
import { MemoryStore } from '../memory-store.ts';
import type { SessionStore } from '../session-store.ts';

/** One store a property runs through: how to open a fresh one, and whether it is skipped. */
export interface StoreKind {
  /** The test name: the store's class, marked when its server is missing. */
  readonly name: 'MemoryStore' | 'FileStore' | 'PostgresStore';
  /** The name as the test report shows it. */
  readonly label: string;
  /** True when the store cannot run here (PostgreSQL without `PLANKIT_PG_URL`). */
  readonly skip: boolean;
  /** A fresh, empty store, and what removes it and everything it wrote. */
  readonly open: () => Promise<{ store: SessionStore; dispose: () => Promise<void> }>;
}

/**
 * The three stores every "what we accept, we store, read back and replay" property runs
 * through, each opened empty: a MemoryStore, a FileStore in a new temporary folder named after
 * `folderPrefix`, and a PostgresStore in a fresh schema (connection `pgOptions` such as
 * `-c extra_float_digits=0`), skipped without a server.
 */
export function storeKinds(folderPrefix: string, pgOptions?: string): readonly StoreKind[] {
  return [
    {
      name: 'MemoryStore',
      label: 'MemoryStore',
      skip: false,
      open: async () => {
        const store = new MemoryStore();
        return { store, dispose: () => store.close() };
      },
    },
    {
      name: 'FileStore',
      label: 'FileStore',
      skip: false,
      open: async () => {
        const directory = await mkdtemp(path.join(os.tmpdir(), folderPrefix));
        const store = new FileStore({ directory });
        return {
          store,
          dispose: async () => {
            await store.close();
            await rm(directory, { recursive: true, force: true });
          },
        };
      },
    },
    {
      name: 'PostgresStore',
      label: `PostgresStore${SKIPPED_WITHOUT_SERVER}`,
      skip: POSTGRES_URL === undefined,
      open: async () => {
        const schema = freshSchema();
        const pool = new pg.Pool({
          connectionString: POSTGRES_URL,
          max: 2,
          ...(pgOptions === undefined ? {} : { options: pgOptions }),
        });
        const store = new PostgresStore({ pool, schema });
        return {
          store,
          dispose: async () => {
            await store.close();
            await pool.end();
            await dropSchema(schema);
          },
        };
      },
    },
  ];
}
