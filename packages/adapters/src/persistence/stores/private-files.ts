import { chmod, mkdir, open } from 'node:fs/promises';
import path from 'node:path';

/** The mode of every folder FileStore creates: only its owner may list or enter it. */
export const FOLDER_MODE = 0o700;
/** The mode of every file FileStore creates: only its owner may read or write it. */
export const FILE_MODE = 0o600;

// Session data holds prompts, plans and tool results, so nothing FileStore creates may be
// readable by other local users. `mkdir` and `open` apply the process umask to the mode they
// are given, which can only remove bits: each creation is followed by an explicit chmod, so
// the result is exactly these modes whatever the umask.

/** Creates one folder with {@link FOLDER_MODE}; fails like `mkdir` when it exists. */
export async function makePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { mode: FOLDER_MODE });
  await chmod(folder, FOLDER_MODE);
}

/**
 * Creates `folder` and its missing parents, each with {@link FOLDER_MODE}. Folders that
 * already existed keep their mode.
 *
 * @returns the first folder created, or `undefined` when `folder` existed
 */
export async function makePrivateFolders(folder: string): Promise<string | undefined> {
  const first = await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
  if (first === undefined) return undefined;
  const target = path.resolve(folder);
  const created = [target];
  for (let at = target; at !== path.resolve(first); ) {
    at = path.dirname(at);
    created.push(at);
  }
  for (const each of created) await chmod(each, FOLDER_MODE);
  return first;
}

/** How {@link writePrivateFile} opens its file. */
export interface PrivateWriteOptions {
  /** `w` (the default) replaces or creates; `wx` fails when the file exists. */
  readonly flag?: 'w' | 'wx' | undefined;
  /** Sync the data to disk before returning. */
  readonly flush?: boolean | undefined;
}

/** Writes a whole file with {@link FILE_MODE}, set before any byte is written. */
export async function writePrivateFile(
  file: string,
  data: string | Uint8Array,
  options: PrivateWriteOptions = {},
): Promise<void> {
  const handle = await open(file, options.flag ?? 'w', FILE_MODE);
  try {
    await handle.chmod(FILE_MODE);
    await handle.writeFile(data);
    if (options.flush === true) await handle.sync();
  } finally {
    await handle.close();
  }
}
