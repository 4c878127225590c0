import { afterEach, beforeEach } from 'vitest';
import { PostgresStore } from '../postgres-store.ts';
import { dropSchema, freshSchema, POSTGRES_URL } from './postgres-url.ts';

/** The store of the running test, on its own schema of the throwaway server. */
export interface FreshPostgresStore {
  readonly store: PostgresStore;
  readonly schema: string;
  readonly url: string;
}

/**
 * Gives each test of the enclosing `describe` a migrated `PostgresStore` on a fresh schema
 * (created before the test, so racing workers find the tables), closed and dropped after it.
 * Call inside a `describe.skipIf(POSTGRES_URL === undefined)`.
 */
export function freshPostgresStoreEach(): FreshPostgresStore {
  const url = POSTGRES_URL as string;
  let current: { store: PostgresStore; schema: string } | undefined;
  beforeEach(async () => {
    const schema = freshSchema();
    const store = new PostgresStore({ connectionString: url, schema });
    const migrated = await store.migrate();
    if (!migrated.ok) throw migrated.error;
    current = { store, schema };
  });
  afterEach(async () => {
    if (current === undefined) return;
    await current.store.close();
    await dropSchema(current.schema);
    current = undefined;
  });
  const now = () => {
    if (current === undefined) throw new Error('freshPostgresStoreEach: no test is running');
    return current;
  };
  return {
    get store() {
      return now().store;
    },
    get schema() {
      return now().schema;
    },
    url,
  };
}
