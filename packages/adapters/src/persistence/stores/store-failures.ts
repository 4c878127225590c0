import type { Err } from '@plankit/core';
import { StoreError } from './store-error.ts';

/** A failed store result: a {@link StoreError} about `sessionId`, when there is one. */
export function fail(
  code: StoreError['code'],
  sessionId: string | undefined,
  message: string,
  cause?: unknown,
): Err<StoreError> {
  return { ok: false, error: new StoreError(code, message, { sessionId, cause }) };
}

/** The `not_found` failure of a session that is not in the store. */
export const notFound = (sessionId: string): Err<StoreError> =>
  fail('not_found', sessionId, `Session ${sessionId} is not in the store.`);

/** The `conflict` of an append whose expected version is not the session's `version`. */
export function versionConflict(
  sessionId: string,
  version: number,
  expectedVersion: number,
): Err<StoreError> {
  return {
    ok: false,
    error: new StoreError(
      'conflict',
      `Session ${sessionId} is at version ${version}, not the expected ${expectedVersion}; reload it and retry.`,
      { sessionId, field: 'expectedVersion' },
    ),
  };
}

/** The `conflict` of a snapshot of `version`, ahead of the session's `current` version. */
export function snapshotAhead(
  sessionId: string,
  version: number,
  current: number,
): Err<StoreError> {
  return {
    ok: false,
    error: new StoreError(
      'conflict',
      `Snapshot version ${version} is ahead of session ${sessionId}'s version ${current}.`,
      { sessionId, field: 'snapshot.version' },
    ),
  };
}
