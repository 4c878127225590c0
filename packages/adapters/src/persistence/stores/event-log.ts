import { isUtf8 } from 'node:buffer';
import { isRecord } from '@plankit/core/internal-unstable';
import type { JsonValue } from './session-store.ts';
import type { PreparedEvent } from './store-input.ts';

/** One line of a FileStore log: an event, and the first and last sequence of its append. */
export interface LogLine {
  readonly seq: number;
  readonly start: number;
  readonly end: number;
  readonly type: string;
  readonly at: number;
  readonly data: JsonValue;
}

/** What {@link scanLog} found. */
export interface LogScan {
  /** The events of the complete appends, in order (empty unless asked for). */
  readonly lines: readonly LogLine[];
  /**
   * The last sequence of the last complete append: `first - 1` when there is none, or
   * `undefined` when there is none and `first` was not given.
   */
  readonly version: number | undefined;
  /** The byte offset just after that append (0 when there is none). */
  readonly cleanEnd: number;
  /** How many bytes after `cleanEnd` were ignored as an append never acknowledged. */
  readonly tornBytes: number;
  /** Set when the bytes after `cleanEnd` cannot be such an append: acknowledged data is damaged. */
  readonly corrupt: string | undefined;
}

const NEWLINE = 0x0a;

/** The lines of one append, numbered from `first`: one buffer, written with one write. */
export function formatLogLines(events: readonly PreparedEvent[], first: number): Buffer {
  const end = first + events.length - 1;
  let text = '';
  for (let i = 0; i < events.length; i++) {
    const { type, at, dataText } = events[i] as PreparedEvent;
    text += `{"seq":${first + i},"start":${first},"end":${end},"type":${JSON.stringify(type)},"at":${JSON.stringify(at)},"data":${dataText}}\n`;
  }
  return Buffer.from(text, 'utf8');
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** Parses the line at `[from, stop)`, or `undefined` when it is not a well-formed log line. */
export function parseLogLine(bytes: Buffer, from: number, stop: number): LogLine | undefined {
  const text = bytes.subarray(from, stop);
  // The store writes only valid UTF-8; decoding damaged bytes would silently put U+FFFD in.
  if (!isUtf8(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { seq, start, end, type, at, data } = value;
  if (!isCount(seq) || !isCount(start) || !isCount(end) || start > seq || seq > end)
    return undefined;
  // `1e999` parses to Infinity: the store never writes it (times are finite).
  if (typeof type !== 'string' || !Number.isFinite(at) || data === undefined) return undefined;
  return value as unknown as LogLine;
}

/**
 * Reads log lines from `bytes`, which starts at a line boundary. Complete appends are kept;
 * what follows the last one is accepted as a torn tail only if it can be part of one unfinished
 * append: any lines in it that parse belong to a single append after the last complete one.
 * Anything else (a later append after a damaged line) is corruption of acknowledged data.
 *
 * @param first - the sequence the first line must have, or `undefined` to trust the first
 *   line (when reading only the end of a log)
 * @param keep - collect the lines (a load) or only find the end (an append)
 */
export function scanLog(bytes: Buffer, first: number | undefined, keep: boolean): LogScan {
  const lines: LogLine[] = [];
  const pending: LogLine[] = [];
  let expected = first;
  let version = first === undefined ? undefined : first - 1;
  let cleanEnd = 0;
  let pos = 0;
  for (;;) {
    const stop = bytes.indexOf(NEWLINE, pos);
    if (stop === -1) break;
    const line = parseLogLine(bytes, pos, stop);
    if (line === undefined) break;
    if (expected !== undefined && line.seq !== expected) break;
    if (pending.length > 0) {
      const head = pending[0] as LogLine;
      if (line.start !== head.start || line.end !== head.end) break;
    } else if (line.start !== line.seq && expected !== undefined) {
      // Only a window into the middle of a log may begin inside an append.
      break;
    }
    pending.push(line);
    expected = line.seq + 1;
    pos = stop + 1;
    if (line.seq === line.end) {
      if (keep) for (const done of pending) lines.push(done);
      pending.length = 0;
      version = line.seq;
      cleanEnd = pos;
    }
  }
  if (cleanEnd === bytes.length) {
    return { lines, version, cleanEnd, tornBytes: 0, corrupt: undefined };
  }
  const corrupt = checkTail(bytes, cleanEnd, version);
  const tornBytes = corrupt === undefined ? bytes.length - cleanEnd : 0;
  return { lines, version, cleanEnd, tornBytes, corrupt };
}

/**
 * The version of a log whose end is one complete append, found by parsing only that append's
 * lines, backwards from the end: the common case, where the whole window need not be read.
 *
 * @param bytes - the end of the log
 * @param whole - whether `bytes` starts at the beginning of the log
 * @returns the version; `'more'` when the append starts before `bytes`; `undefined` when the
 *   end is not one complete append (then {@link scanLog} decides)
 */
export function completeTail(bytes: Buffer, whole: boolean): number | 'more' | undefined {
  if (bytes.length === 0) return whole ? 0 : 'more';
  if (bytes[bytes.length - 1] !== NEWLINE) return undefined;
  let stop = bytes.length - 1;
  let last: LogLine | undefined;
  for (;;) {
    const newline = bytes.lastIndexOf(NEWLINE, stop - 1);
    if (newline === -1 && !whole) return 'more';
    const line = parseLogLine(bytes, newline + 1, stop);
    if (line === undefined) return undefined;
    if (last === undefined) {
      if (line.seq !== line.end) return undefined;
      last = line;
    } else if (line.seq !== last.seq - 1 || line.start !== last.start || line.end !== last.end) {
      return undefined;
    } else {
      last = line;
    }
    if (line.seq === line.start) return line.end;
    if (newline === -1) return undefined;
    stop = newline;
  }
}

/** Why the bytes from `from` cannot be one unfinished append after `version`, if they cannot. */
function checkTail(bytes: Buffer, from: number, version: number | undefined): string | undefined {
  let end: number | undefined;
  let last = version ?? 0;
  let pos = from;
  for (;;) {
    const stop = bytes.indexOf(NEWLINE, pos);
    if (stop === -1) return undefined;
    const line = parseLogLine(bytes, pos, stop);
    if (line !== undefined) {
      // Lines an unfinished append left are in order and all of that one append, which starts
      // right after the last complete one, where its first line was written: damage garbles
      // bytes in place and never puts a line before it. Anything else was acknowledged once.
      if (
        line.seq <= last ||
        (line.seq === line.start && pos !== from) ||
        (version !== undefined && line.start !== version + 1) ||
        (end !== undefined && line.end !== end)
      ) {
        return `it cannot be read past event ${version ?? '(unknown)'} (byte ${from}): a damaged or misplaced line comes before event ${line.seq} (of the append of events ${line.start} to ${line.end})`;
      }
      end = line.end;
      last = line.seq;
    }
    pos = stop + 1;
  }
}
