import { describe, expect, it } from 'vitest';
import { packagesLoadedBy } from '../../testing/packages-loaded-by.ts';
import * as postgres from '../postgres/index.ts';
import * as stores from './index.ts';

describe('the store entry points', () => {
  it('export exactly the public API', () => {
    expect(Object.keys(stores).sort()).toEqual([
      'FileStore',
      'MemoryStore',
      'SESSION_COMMITTED_EVENT',
      'SESSION_ROLLED_BACK_EVENT',
      'StoreError',
      'attachStore',
    ]);
    expect(Object.keys(postgres)).toEqual(['PostgresStore']);
  });

  it('load pg only from @plankit/adapters/postgres', async () => {
    const fromStores = await packagesLoadedBy('@plankit/adapters/stores');
    expect(fromStores.filter((name) => name === 'pg' || name.startsWith('pg/'))).toEqual([]);
    expect(await packagesLoadedBy('@plankit/adapters/postgres')).toContain('pg');
  }, 60_000);
});
