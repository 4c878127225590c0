/**
 * `PostgresStore`: the session store for many workers, on PostgreSQL through the `pg`
 * package (an optional peer dependency: install `pg` to use this subpath).
 *
 * @packageDocumentation
 * @module @plankit/adapters/postgres
 */

export type { PostgresStoreOptions } from './postgres-store.ts';
export { PostgresStore } from './postgres-store.ts';
