import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as postgres from '../postgres/index.ts';
import * as stores from './index.ts';

const run = promisify(execFile);
const hook = fileURLToPath(new URL('../../testing/record-imports.mjs', import.meta.url));
const root = fileURLToPath(new URL('../../../../..', import.meta.url));

/** The bare packages a fresh process resolves when it imports `specifier`. */
async function packagesLoadedBy(specifier: string): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [
      '--conditions=@plankit/source',
      '--import',
      'tsx',
      '--import',
      hook,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(specifier)});`,
    ],
    { cwd: root, timeout: 60_000 },
  );
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('RESOLVE '))
    .map((line) => line.slice('RESOLVE '.length));
}

describe('the store entry points', () => {
  it('export exactly the public API', () => {
    expect(Object.keys(stores).sort()).toEqual([
      'FileStore',
      'MemoryStore',
      'SESSION_COMMITTED_EVENT',
      'SESSION_ROLLED_BACK_EVENT',
      'StoreError',
      'attachStore',
      'isSessionId',
    ]);
    expect(Object.keys(postgres)).toEqual(['PostgresStore']);
  });

  it('load pg only from @plankit/adapters/postgres', async () => {
    const fromStores = await packagesLoadedBy('@plankit/adapters/stores');
    expect(fromStores.filter((name) => name === 'pg' || name.startsWith('pg/'))).toEqual([]);
    expect(await packagesLoadedBy('@plankit/adapters/postgres')).toContain('pg');
  }, 60_000);
});
