import { randomUUID } from 'node:crypto';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writePrivateFile } from './private-files.ts';

// The file operations FileStore builds on: durable renames, whole reads and writes.

/** The `code` of a file system error (`ENOENT`, ...), if it has one. */
export const errorCode = (error: unknown): string | undefined =>
  (error as NodeJS.ErrnoException).code;

/** Makes a rename or link durable: the new directory entry is written when this returns. */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms cannot open or sync a directory; the entry is then as durable as they allow.
    if (!['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'ENOTSUP'].includes(errorCode(error) ?? ''))
      throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Opens a log to read it, or `undefined` when there is none. A folder in its place opens too
 * (reading it would then fail without naming it): that throws, naming the path.
 */
export async function openLogToRead(file: string): Promise<FileHandle | undefined> {
  const handle = await open(file, 'r').catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (handle === undefined || (await handle.stat()).isFile()) return handle;
  await handle.close();
  throw new Error(`${file} is not a file`);
}

/**
 * Writes a new file whole and synced under a temporary name in `folder`, then renames it to
 * `name`. When either step fails, nothing of the temporary file is left (a full disk must not
 * keep what it could write).
 */
export async function writeThenRename(
  folder: string,
  suffix: string,
  data: string | Uint8Array,
  name: string,
): Promise<void> {
  const temporary = path.join(folder, `.tmp-${randomUUID()}${suffix}`);
  try {
    await writePrivateFile(temporary, data, { flag: 'wx', flush: true });
    await rename(temporary, path.join(folder, name));
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

export async function readRange(handle: FileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(end - start);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === buffer.length ? buffer : buffer.subarray(0, filled);
}

export async function writeAll(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const result = await handle.write(bytes, written, bytes.length - written, position + written);
    written += result.bytesWritten;
  }
}
