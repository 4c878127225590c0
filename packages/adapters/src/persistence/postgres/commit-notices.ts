import type { Result } from '@plankit/core';
import type pg from 'pg';
import type { StopWatching, StoreCommit } from '../stores/session-store.ts';
import { StoreError } from '../stores/store-error.ts';

/**
 * The `LISTEN/NOTIFY` channel of one store's tables: one per schema and table prefix, so two
 * stores on different tables never hear each other. Both parts are checked identifiers
 * (lowercase letters, digits, `_`), so the name is safe as a quoted identifier and in a
 * literal. Appends publish on it (`postgres-statements.ts`): `{"s": sessionId, "v": version}`.
 */
export function commitChannel(schema: string, tablePrefix: string): string {
  return `${tablePrefix}commits_${schema}`.slice(0, 63);
}

/** The commit a notice's payload names, or `undefined` for a payload that is not one. */
function commitOf(payload: string | undefined): StoreCommit | undefined {
  if (payload === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return undefined;
    const { s, v } = value as { s?: unknown; v?: unknown };
    if (typeof s !== 'string' || !Number.isSafeInteger(v) || (v as number) < 1) return undefined;
    return Object.freeze({ sessionId: s, version: v as number });
  } catch {
    return undefined;
  }
}

/**
 * Listens on `channel` on one connection taken from `pool` for the watch's life, calling
 * `listener` for each commit published there. A connection that fails ends the watch, and
 * `onEnd` hears why, so the caller can watch again.
 */
export async function listenForCommits(
  pool: pg.Pool,
  channel: string,
  listener: (commit: StoreCommit) => void,
  onEnd: (error: StoreError) => void,
): Promise<Result<StopWatching, StoreError>> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
    await client.query(`LISTEN "${channel}"`);
  } catch (cause) {
    return {
      ok: false,
      error: new StoreError(
        'unreachable',
        `PostgresStore.watch could not listen for commits: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      ),
    };
  }
  let stopped = false;
  const onNotification = (message: pg.Notification): void => {
    if (message.channel !== channel) return;
    const commit = commitOf(message.payload);
    if (commit !== undefined) listener(commit);
  };
  const onError = (cause: Error): void => {
    if (stopped) return;
    stopped = true;
    client.off('notification', onNotification);
    client.release(cause);
    onEnd(
      new StoreError('unreachable', `PostgresStore.watch lost its connection: ${cause.message}`, {
        cause,
      }),
    );
  };
  client.on('notification', onNotification);
  client.on('error', onError);
  const stop: StopWatching = async () => {
    if (stopped) return;
    stopped = true;
    client.off('notification', onNotification);
    try {
      await client.query(`UNLISTEN "${channel}"`);
      client.off('error', onError);
      client.release();
    } catch (cause) {
      client.release(cause instanceof Error ? cause : true);
    }
  };
  return { ok: true, value: stop };
}
