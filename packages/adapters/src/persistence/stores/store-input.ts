import type { Err, Result } from '@plankit/core';
import { checkOptionKeys, invalidArgument, isRecord } from '@plankit/core/internal-unstable';
import { toJsonText } from './json-data.ts';
import { sessionIdError } from './session-id.ts';
import type { ListOptions, LoadOptions, NewEvent, SnapshotInput } from './session-store.ts';
import { StoreError } from './store-error.ts';

/** An event checked and serialized once, ready for any store's format. */
export interface PreparedEvent {
  readonly type: string;
  readonly at: number;
  /** `JSON.stringify(data)`. */
  readonly dataText: string;
}

/** A snapshot checked and serialized once. */
export interface PreparedSnapshot {
  readonly version: number;
  /** `JSON.stringify(data)`. */
  readonly dataText: string;
}

/** Checked list options: `limit` is `Infinity` when none was given. */
export interface CheckedListOptions {
  readonly after: string | undefined;
  readonly limit: number;
}

const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9_.:-]{0,127}$/;

function refuse(
  code: 'event_invalid' | 'snapshot_invalid',
  sessionId: string,
  field: string,
  message: string,
): Err<StoreError> {
  return { ok: false, error: new StoreError(code, message, { sessionId, field }) };
}

const LOAD_KEYS: ReadonlySet<string> = new Set(['snapshot']);
const LIST_KEYS: ReadonlySet<string> = new Set(['after', 'limit']);

/** Checks a session id argument: the `session_id_invalid` result, if any. */
export function checkSessionId(sessionId: unknown): Result<string, StoreError> {
  const error = sessionIdError(sessionId);
  return error === undefined ? { ok: true, value: sessionId as string } : { ok: false, error };
}

/** Checks `load` options; bad ones are programmer errors. */
export function checkLoadOptions(where: string, options: LoadOptions | undefined): boolean {
  if (options === undefined) return true;
  if (!isRecord(options)) throw invalidArgument(where, 'options', 'must be an object');
  checkOptionKeys(where, options, LOAD_KEYS);
  const { snapshot = true } = options as LoadOptions;
  if (typeof snapshot !== 'boolean') {
    throw invalidArgument(where, 'options.snapshot', 'must be a boolean');
  }
  return snapshot;
}

/** Checks `list` options; bad ones are programmer errors. */
export function checkListOptions(
  where: string,
  options: ListOptions | undefined,
): CheckedListOptions {
  if (options === undefined) return { after: undefined, limit: Number.POSITIVE_INFINITY };
  if (!isRecord(options)) throw invalidArgument(where, 'options', 'must be an object');
  checkOptionKeys(where, options, LIST_KEYS);
  const { after, limit = Number.POSITIVE_INFINITY } = options as ListOptions;
  if (after !== undefined && typeof after !== 'string') {
    throw invalidArgument(where, 'options.after', 'must be a string');
  }
  if (
    limit !== Number.POSITIVE_INFINITY &&
    (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1)
  ) {
    throw invalidArgument(where, 'options.limit', 'must be a positive integer');
  }
  return { after, limit };
}

/**
 * Checks an append's arguments. A bad `expectedVersion` or `events` container is a
 * programmer error and throws; a bad id or event is a result.
 */
export function checkAppend(
  where: string,
  sessionId: unknown,
  expectedVersion: unknown,
  events: unknown,
): Result<readonly PreparedEvent[], StoreError> {
  if (
    typeof expectedVersion !== 'number' ||
    !Number.isSafeInteger(expectedVersion) ||
    expectedVersion < 0
  ) {
    throw invalidArgument(where, 'expectedVersion', 'must be a non-negative integer');
  }
  if (!Array.isArray(events) || events.length === 0) {
    throw invalidArgument(where, 'events', 'must be a non-empty array');
  }
  const id = checkSessionId(sessionId);
  if (!id.ok) return id;
  const prepared: PreparedEvent[] = [];
  for (let i = 0; i < events.length; i++) {
    const event: unknown = events[i];
    const field = `events[${i}]`;
    if (!isRecord(event)) {
      return refuse(
        'event_invalid',
        id.value,
        field,
        `${field} must be an object { type, at, data }.`,
      );
    }
    const { type, at, data } = event as Partial<NewEvent>;
    if (typeof type !== 'string' || !EVENT_TYPE.test(type)) {
      return refuse(
        'event_invalid',
        id.value,
        `${field}.type`,
        `${field}.type must be 1-128 characters [A-Za-z0-9_.:-] starting with a letter.`,
      );
    }
    if (typeof at !== 'number' || !Number.isFinite(at)) {
      return refuse(
        'event_invalid',
        id.value,
        `${field}.at`,
        `${field}.at must be a finite number (epoch milliseconds).`,
      );
    }
    const serialized = toJsonText(data, `${field}.data`);
    if ('problem' in serialized) {
      const { path, rule } = serialized.problem;
      return refuse('event_invalid', id.value, path, `${path} ${rule}.`);
    }
    prepared.push({ type, at, dataText: serialized.text });
  }
  return { ok: true, value: prepared };
}

/**
 * Checks a snapshot's arguments. A bad container or version is a programmer error and throws;
 * a bad id or data is a result.
 */
export function checkSnapshot(
  where: string,
  sessionId: unknown,
  snapshot: unknown,
): Result<PreparedSnapshot, StoreError> {
  if (!isRecord(snapshot))
    throw invalidArgument(where, 'snapshot', 'must be an object { version, data }');
  const { version, data } = snapshot as Partial<SnapshotInput>;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw invalidArgument(where, 'snapshot.version', 'must be a positive integer');
  }
  const id = checkSessionId(sessionId);
  if (!id.ok) return id;
  const serialized = toJsonText(data, 'snapshot.data', { jsonb: true });
  if ('problem' in serialized) {
    const { path, rule } = serialized.problem;
    return refuse('snapshot_invalid', id.value, path, `${path} ${rule}.`);
  }
  return { ok: true, value: { version, dataText: serialized.text } };
}

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

/**
 * Orders ids by code point, which is the byte order of their UTF-8 and PostgreSQL's `C`
 * collation, so every store lists alike. Code units differ only past U+FFFF: a surrogate
 * pair sorts below U+E000-U+FFFF by code unit, above them by code point.
 */
export function compareIds(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only surrogates sort out of code-point order: lift them above the rest of the BMP.
    return (isSurrogate(x) ? x + 0x10000 : x) - (isSurrogate(y) ? y + 0x10000 : y);
  }
  return a.length - b.length;
}

/** Applies checked list options to ids sorted by {@link compareIds}. */
export function pageOf(sorted: readonly string[], { after, limit }: CheckedListOptions): string[] {
  let start = 0;
  if (after !== undefined) {
    while (start < sorted.length && compareIds(sorted[start] as string, after) <= 0) start++;
  }
  return sorted.slice(start, limit === Number.POSITIVE_INFINITY ? undefined : start + limit);
}

/** Sorts ids by code point ({@link compareIds}), the order every store lists in. */
export function sortIds(ids: string[]): string[] {
  return ids.sort(compareIds);
}
