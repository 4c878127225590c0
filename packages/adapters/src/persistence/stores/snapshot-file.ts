import { crc32 } from 'node:zlib';
import type { JsonValue } from './session-store.ts';

/** The first line of a FileStore snapshot file; the data follows on the second line. */
export interface SnapshotHeader {
  readonly format: 'plankit.file-snapshot';
  readonly formatVersion: 1;
  readonly sessionId: string;
  /** The sequence of the last event the snapshot includes. */
  readonly version: number;
  readonly schemaVersion: number;
  /** Byte offset of event `version + 1` in the log, when known. */
  readonly offset: number | null;
  /** Length of the data line in bytes, without its newline. */
  readonly bytes: number;
  /** CRC-32 of the data line. */
  readonly crc32: number;
}

/** A snapshot file read back. */
export interface SnapshotFile {
  readonly header: SnapshotHeader;
  readonly data: JsonValue;
}

const NEWLINE = 0x0a;

/** The bytes of a snapshot file. */
export function formatSnapshotFile(
  sessionId: string,
  version: number,
  schemaVersion: number,
  offset: number | null,
  dataText: string,
): Buffer {
  const data = Buffer.from(dataText, 'utf8');
  const header: SnapshotHeader = {
    format: 'plankit.file-snapshot',
    formatVersion: 1,
    sessionId,
    version,
    schemaVersion,
    offset,
    bytes: data.length,
    crc32: crc32(data),
  };
  return Buffer.concat([
    Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'),
    data,
    Buffer.from('\n'),
  ]);
}

const isCount = (value: unknown, min: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

/** Parses the header line, or says why it is not one written for `sessionId`. */
export function parseSnapshotHeader(line: string, sessionId: string): SnapshotHeader | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'its header is not JSON';
  }
  const header = value as Partial<SnapshotHeader> | null;
  if (
    typeof header !== 'object' ||
    header === null ||
    header.format !== 'plankit.file-snapshot' ||
    header.formatVersion !== 1
  ) {
    return 'its header is not a plankit snapshot header of format version 1';
  }
  if (header.sessionId !== sessionId) return `it belongs to session ${String(header.sessionId)}`;
  if (
    !isCount(header.version, 1) ||
    !isCount(header.schemaVersion, 1) ||
    !isCount(header.bytes, 0) ||
    !isCount(header.crc32, 0) ||
    (header.offset !== null && !isCount(header.offset, 0))
  ) {
    return 'its header has a field of the wrong type';
  }
  return header as SnapshotHeader;
}

/** Reads a whole snapshot file, or says why it cannot be trusted. */
export function parseSnapshotFile(bytes: Buffer, sessionId: string): SnapshotFile | string {
  const newline = bytes.indexOf(NEWLINE);
  if (newline === -1) return 'it has no complete header line';
  const header = parseSnapshotHeader(bytes.toString('utf8', 0, newline), sessionId);
  if (typeof header === 'string') return header;
  const start = newline + 1;
  const stop = start + header.bytes;
  if (bytes.length !== stop + 1 || bytes[stop] !== NEWLINE) {
    return `it is ${bytes.length} bytes long, not the ${stop + 1} its header announces`;
  }
  const data = bytes.subarray(start, stop);
  if (crc32(data) !== header.crc32) return 'its data does not match its checksum';
  try {
    return { header, data: JSON.parse(data.toString('utf8')) as JsonValue };
  } catch {
    return 'its data is not JSON';
  }
}
