import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The throwaway server `scripts/postgres.sh` starts, or `undefined` when none is set. */
export const POSTGRES_URL: string | undefined = process.env['PLANKIT_PG_URL'] || undefined;

/** The title suffix of PostgreSQL tests, which says loudly why they are skipped. */
export const SKIPPED_WITHOUT_SERVER: string =
  POSTGRES_URL === undefined
    ? ' [SKIPPED: PLANKIT_PG_URL is not set; run bash scripts/postgres.sh run -- npx vitest run --project adapters]'
    : '';

let warned = false;

/** Prints, once per test worker, that the PostgreSQL tests did not run. */
export function warnWhenSkipped(what: string): void {
  if (POSTGRES_URL !== undefined || warned) return;
  warned = true;
  process.stderr.write(
    `\n!!! ${what} SKIPPED: no PostgreSQL. Set PLANKIT_PG_URL, or run\n!!!   bash scripts/postgres.sh run -- npx vitest run --project adapters\n\n`,
  );
}

/** A fresh schema name, so test files and runs never see each other's tables. */
export function freshSchema(): string {
  return `plankit_test_${randomBytes(6).toString('hex')}`;
}

/** Drops a schema made by a test, with its tables. */
export async function dropSchema(schema: string): Promise<void> {
  if (POSTGRES_URL === undefined) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
