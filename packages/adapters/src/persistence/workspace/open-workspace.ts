import { randomUUID } from 'node:crypto';
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  realpath,
  rename,
  stat,
  unlink,
} from 'node:fs/promises';
import path from 'node:path';
import type { Err, Result } from '@plankit/core';
import { unknownOption } from '@plankit/core/internal-unstable';
import { syncDirectory } from '../stores/file-io.ts';
import {
  entryProblem,
  formatEntry,
  type MeetingEntry,
  type MeetingRead,
  parseMeeting,
  type TornLine,
} from './meeting-log.ts';
import {
  type ArchivedPhase,
  archiveProblem,
  parseArchive,
  renderArchive,
  renderTodos,
  type TodosFile,
  todosProblem,
} from './phase-yaml.ts';
import { WorkspaceError } from './workspace-error.ts';
import { pathSegments } from './workspace-path.ts';

/** A file not read because it is over the size limit; only its size is known. @public */
export interface OversizedFile {
  /** Always `oversized`. */
  readonly kind: 'oversized';
  /** Its size in bytes. */
  readonly bytes: number;
}

/** One entry of a listing. @public */
export interface WorkspaceEntry {
  /** Relative to the root, `/`-separated. */
  readonly path: string;
  /** What it is; symlinks are listed, not followed. */
  readonly kind: 'file' | 'directory' | 'symlink';
  /** The size in bytes (0 for folders and symlinks). */
  readonly bytes: number;
}

/** Options of {@link openWorkspace}. @public */
export interface WorkspaceOptions {
  /** Create the root folder (and its parents) when missing; `false` by default. */
  readonly create?: boolean | undefined;
  /** The default size limit of {@link Workspace.readText}, in bytes; 1 MiB by default. */
  readonly maxReadBytes?: number | undefined;
}

/** Options of {@link Workspace.readText}. @public */
export interface ReadTextOptions {
  /** Files larger than this are not read; the workspace's limit by default. */
  readonly maxBytes?: number | undefined;
}

/** Options of {@link Workspace.list}. @public */
export interface ListOptions {
  /** The most entries returned; 1,000 by default. */
  readonly maxEntries?: number | undefined;
}

/** What {@link Workspace.writeText} wrote. @public */
export interface WrittenFile {
  /** The path, as normalised (relative to the root). */
  readonly path: string;
  /** The bytes written. */
  readonly bytes: number;
}

/** What {@link Workspace.appendMeeting} did. @public */
export interface MeetingAppend {
  /** The entries appended, each on its own fsynced line. */
  readonly appended: number;
  /** A torn last line a crash had left, cut off before appending; or null. */
  readonly repaired: TornLine | null;
}

type Outcome<T> = Promise<Result<T, WorkspaceError>>;

/** What {@link Workspace.consumeTodos} does with `todos.yaml`. @public */
export interface TodosConsumption {
  /** `archive`: move it to `archivePath`; `remove`: delete it. */
  readonly action: 'archive' | 'remove';
  /** `archive/todos_phase_N.yaml` when archiving, else null. */
  readonly archivePath: string | null;
}

const TODOS_ARCHIVE = /^archive\/todos_phase_[1-9][0-9]*\.yaml$/;

/**
 * One job's workspace folder (phases, review and workshop): whole-file reads and atomic writes that
 * never leave the root, and the workflows' files: `todos.yaml`, `archive/phase_N.yaml`,
 * `workspace.md` and `planning/meeting.jsonl`. Every method resolves to a `Result`. It
 * satisfies the `PhaseFiles` and `InspectionFiles` ports of `@plankit/controller`.
 *
 * @public
 */
export interface Workspace {
  /** The root folder, resolved through symlinks. */
  readonly root: string;
  /** A file's text; null when missing; `{ kind: 'oversized', bytes }` over the limit (not read). */
  readText(file: string, options?: ReadTextOptions): Outcome<string | OversizedFile | null>;
  /** Replaces a file atomically (temporary file, fsync, rename, folder fsync), creating folders. */
  writeText(file: string, text: string): Outcome<WrittenFile>;
  /** Files, folders and symlinks under a folder, recursively, sorted by path. */
  list(folder?: string, options?: ListOptions): Outcome<readonly WorkspaceEntry[]>;
  /** `todos.yaml`: its text, null when missing, or oversized (limit 64 KiB by default). */
  readTodos(options?: ReadTextOptions): Outcome<string | OversizedFile | null>;
  /** Writes `todos.yaml` with the `yaml` package. */
  writeTodos(document: TodosFile): Outcome<WrittenFile>;
  /** Writes `archive/phase_N.yaml`. */
  writeArchive(archive: ArchivedPhase): Outcome<WrittenFile>;
  /**
   * Once a hand-off consumed `todos.yaml` (the controller's `todos_consumed` signal): moves it
   * to `archivePath` (`archive/todos_phase_N.yaml`) or deletes it. Its new path, or null when
   * removed or already gone.
   */
  consumeTodos(consumed: TodosConsumption): Outcome<string | null>;
  /** Reads `archive/phase_N.yaml`; null when there is none, `corrupt` when it is damaged. */
  readArchive(phaseNumber: number): Outcome<ArchivedPhase | null>;
  /** The numbers of the archived phases, in order. */
  listArchives(): Outcome<readonly number[]>;
  /** `workspace.md`, or the empty string when missing. */
  readMemory(): Outcome<string>;
  /** Replaces `workspace.md`. */
  writeMemory(text: string): Outcome<WrittenFile>;
  /**
   * Appends entries to `planning/meeting.jsonl`, one fsynced line each. Appends in one process
   * take turns (every workspace on the folder), so one call's entries stay together and none
   * is cut as torn while it is written. Across processes there is no lock: give a workspace
   * one writing process, as the workflows do (one job per workspace).
   */
  appendMeeting(entries: readonly MeetingEntry[]): Outcome<MeetingAppend>;
  /** Reads `planning/meeting.jsonl` (no entries when missing), reporting a torn last line. */
  readMeeting(): Outcome<MeetingRead>;
  /** Moves the transcript to `planning/archive/meeting_N.jsonl`; its new path, or null when there is none. */
  archiveMeeting(): Outcome<string | null>;
}

const MIB = 1024 * 1024;
const OPTION_KEYS: ReadonlySet<string> = new Set(['create', 'maxReadBytes']);
const TODOS = 'todos.yaml';
const MEMORY = 'workspace.md';
const MEETING = 'planning/meeting.jsonl';
const ARCHIVED_MEETING = /^meeting_([1-9][0-9]*)\.jsonl$/;
const ARCHIVE = /^phase_([1-9][0-9]*)\.yaml$/;
const TEMPORARY = /^\..+\.[0-9a-f-]{36}\.tmp$/;
const TAIL_WINDOW = 64 * 1024;

// The append in progress on each meeting transcript of this process, by real path: every
// workspace opened on one folder shares it.
const meetingAppends = new Map<string, Promise<void>>();

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException)?.code;

function fail(
  code: WorkspaceError['code'],
  message: string,
  file?: string,
  cause?: unknown,
): Err<WorkspaceError> {
  return { ok: false, error: new WorkspaceError(code, message, { path: file, cause }) };
}

function io(action: string, file: string, cause: unknown): Err<WorkspaceError> {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return fail('io', `${action} ${file} failed: ${reason}`, file, cause);
}

function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

class FolderWorkspace implements Workspace {
  readonly root: string;
  readonly #maxReadBytes: number;

  constructor(root: string, maxReadBytes: number) {
    this.root = root;
    this.#maxReadBytes = maxReadBytes;
  }

  #inside(real: string): boolean {
    return real === this.root || real.startsWith(`${this.root}${path.sep}`);
  }

  #outside(file: string): Err<WorkspaceError> {
    return fail(
      'path_outside_root',
      `Path ${JSON.stringify(file)} leads outside the workspace through a symlink.`,
      file,
    );
  }

  /**
   * Where `segments` leads on disk, through symlinks: the real path when it exists, or the real
   * path of its deepest existing folder plus the missing names. Either must be inside the root.
   */
  async #locate(
    file: string,
    segments: readonly string[],
  ): Outcome<{ readonly real: string; readonly exists: boolean }> {
    for (let depth = segments.length; depth >= 0; depth--) {
      const candidate = path.join(this.root, ...segments.slice(0, depth));
      let real: string;
      try {
        real = await realpath(candidate);
      } catch (error) {
        if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') continue;
        return io('Resolving', file, error);
      }
      if (!this.#inside(real)) return this.#outside(file);
      const exists = depth === segments.length;
      return {
        ok: true,
        value: { real: exists ? real : path.join(real, ...segments.slice(depth)), exists },
      };
    }
    return this.#outside(file);
  }

  async readText(
    file: string,
    options: ReadTextOptions = {},
  ): Outcome<string | OversizedFile | null> {
    const maxBytes = options?.maxBytes ?? this.#maxReadBytes;
    if (!isLimit(maxBytes))
      return fail(
        'input_invalid',
        'readText: options.maxBytes must be a non-negative integer.',
        file,
      );
    const segments = pathSegments(file);
    if (!segments.ok) return segments;
    const located = await this.#locate(file, segments.value);
    if (!located.ok) return located;
    if (!located.value.exists) return { ok: true, value: null };
    let handle: FileHandle | undefined;
    try {
      handle = await open(located.value.real, 'r');
      const info = await handle.stat();
      if (!info.isFile()) return fail('not_a_file', `${file} is not a file.`, file);
      if (info.size > maxBytes) return { ok: true, value: { kind: 'oversized', bytes: info.size } };
      return { ok: true, value: await handle.readFile('utf8') };
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return { ok: true, value: null };
      if (codeOf(error) === 'EISDIR') return fail('not_a_file', `${file} is not a file.`, file);
      return io('Reading', file, error);
    } finally {
      await handle?.close();
    }
  }

  async writeText(file: string, text: string): Outcome<WrittenFile> {
    if (typeof text !== 'string')
      return fail('input_invalid', 'writeText: text must be a string.', file);
    const segments = pathSegments(file);
    if (!segments.ok) return segments;
    if (segments.value.length === 0)
      return fail('not_a_file', 'The workspace root is not a file.', file);
    const located = await this.#locate(file, segments.value);
    if (!located.ok) return located;
    const target = located.value.real;
    const folder = path.dirname(target);
    const temporary = path.join(folder, `.${path.basename(target)}.${randomUUID()}.tmp`);
    const bytes = Buffer.from(text, 'utf8');
    let handle: FileHandle | undefined;
    try {
      if (located.value.exists && !(await stat(target)).isFile()) {
        return fail('not_a_file', `${file} is not a file.`, file);
      }
      await mkdir(folder, { recursive: true });
      handle = await open(temporary, 'wx');
      await handle.writeFile(bytes);
      await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(temporary, target);
      await syncDirectory(folder);
      return { ok: true, value: { path: segments.value.join('/'), bytes: bytes.length } };
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      return io('Writing', file, error);
    }
  }

  async list(folder = '.', options: ListOptions = {}): Outcome<readonly WorkspaceEntry[]> {
    const maxEntries = options?.maxEntries ?? 1000;
    if (!isLimit(maxEntries))
      return fail(
        'input_invalid',
        'list: options.maxEntries must be a non-negative integer.',
        folder,
      );
    const segments = pathSegments(folder);
    if (!segments.ok) return segments;
    const located = await this.#locate(folder, segments.value);
    if (!located.ok) return located;
    if (!located.value.exists) return fail('not_found', `Folder ${folder} does not exist.`, folder);
    const entries: WorkspaceEntry[] = [];
    try {
      if (!(await stat(located.value.real)).isDirectory())
        return fail('not_a_file', `${folder} is not a folder.`, folder);
      const walk = async (real: string, relative: string): Promise<void> => {
        const children = (await readdir(real, { withFileTypes: true })).sort((a, b) =>
          a.name < b.name ? -1 : 1,
        );
        for (const child of children) {
          if (entries.length >= maxEntries) return;
          if (child.isFile() && TEMPORARY.test(child.name)) continue;
          const name = relative === '' ? child.name : `${relative}/${child.name}`;
          const full = path.join(real, child.name);
          if (child.isSymbolicLink()) entries.push({ path: name, kind: 'symlink', bytes: 0 });
          else if (child.isDirectory()) {
            entries.push({ path: name, kind: 'directory', bytes: 0 });
            await walk(full, name);
          } else if (child.isFile())
            entries.push({ path: name, kind: 'file', bytes: (await lstat(full)).size });
        }
      };
      await walk(located.value.real, segments.value.join('/'));
    } catch (error) {
      return io('Listing', folder, error);
    }
    return { ok: true, value: entries };
  }

  readTodos(options: ReadTextOptions = {}): Outcome<string | OversizedFile | null> {
    return this.readText(TODOS, { maxBytes: options?.maxBytes ?? 64 * 1024 });
  }

  async writeTodos(document: TodosFile): Outcome<WrittenFile> {
    const problem = todosProblem(document);
    if (problem !== null)
      return fail('input_invalid', `writeTodos: the document ${problem}.`, TODOS);
    return this.writeText(TODOS, renderTodos(document));
  }

  async writeArchive(archive: ArchivedPhase): Outcome<WrittenFile> {
    const problem = archiveProblem(archive);
    if (problem !== null) return fail('input_invalid', `writeArchive: the archive ${problem}.`);
    return this.writeText(`archive/phase_${archive.phaseNumber}.yaml`, renderArchive(archive));
  }

  async consumeTodos(consumed: TodosConsumption): Outcome<string | null> {
    const { action, archivePath } = (consumed ?? {}) as Partial<TodosConsumption>;
    if (action !== 'archive' && action !== 'remove')
      return fail('input_invalid', 'consumeTodos: action must be archive or remove.', TODOS);
    if (
      action === 'archive' &&
      (typeof archivePath !== 'string' || !TODOS_ARCHIVE.test(archivePath))
    )
      return fail(
        'input_invalid',
        'consumeTodos: archivePath must be archive/todos_phase_N.yaml when archiving.',
        TODOS,
      );
    const located = await this.#locate(TODOS, [TODOS]);
    if (!located.ok) return located;
    if (!located.value.exists) return { ok: true, value: null };
    try {
      if (action === 'remove') {
        await unlink(located.value.real);
        await syncDirectory(path.dirname(located.value.real));
        return { ok: true, value: null };
      }
      const target = archivePath as string;
      const moved = await this.#locate(target, target.split('/'));
      if (!moved.ok) return moved;
      await mkdir(path.dirname(moved.value.real), { recursive: true });
      await rename(located.value.real, moved.value.real);
      await syncDirectory(path.dirname(moved.value.real));
      await syncDirectory(path.dirname(located.value.real));
      return { ok: true, value: target };
    } catch (error) {
      return io('Consuming', TODOS, error);
    }
  }

  async readArchive(phaseNumber: number): Outcome<ArchivedPhase | null> {
    if (!Number.isSafeInteger(phaseNumber) || phaseNumber < 1) {
      return fail('input_invalid', 'readArchive: phaseNumber must be an integer >= 1.');
    }
    const file = `archive/phase_${phaseNumber}.yaml`;
    const read = await this.readText(file);
    if (!read.ok || read.value === null) return read as Result<null, WorkspaceError>;
    if (typeof read.value !== 'string')
      return fail('too_large', `${file} is ${read.value.bytes} bytes, over the limit.`, file);
    const archive = parseArchive(read.value);
    if (typeof archive === 'string') return fail('corrupt', `${file} ${archive}.`, file);
    return { ok: true, value: archive };
  }

  async listArchives(): Outcome<readonly number[]> {
    const listed = await this.list('archive');
    if (!listed.ok) return listed.error.code === 'not_found' ? { ok: true, value: [] } : listed;
    const numbers: number[] = [];
    for (const entry of listed.value) {
      const match =
        entry.kind === 'file' ? ARCHIVE.exec(entry.path.slice('archive/'.length)) : null;
      if (match !== null) numbers.push(Number(match[1]));
    }
    return { ok: true, value: numbers.sort((a, b) => a - b) };
  }

  async readMemory(): Outcome<string> {
    const read = await this.readText(MEMORY);
    if (!read.ok) return read;
    if (read.value === null) return { ok: true, value: '' };
    if (typeof read.value !== 'string') {
      return fail('too_large', `${MEMORY} is ${read.value.bytes} bytes, over the limit.`, MEMORY);
    }
    return { ok: true, value: read.value };
  }

  writeMemory(text: string): Outcome<WrittenFile> {
    return this.writeText(MEMORY, text);
  }

  async appendMeeting(entries: readonly MeetingEntry[]): Outcome<MeetingAppend> {
    if (!Array.isArray(entries))
      return fail('input_invalid', 'appendMeeting: entries must be an array.', MEETING);
    for (const [index, entry] of entries.entries()) {
      const problem = entryProblem(entry);
      if (problem !== null) {
        return {
          ok: false,
          error: new WorkspaceError(
            'input_invalid',
            `appendMeeting: entries[${index}] ${problem}.`,
            { path: MEETING, field: `entries[${index}]` },
          ),
        };
      }
    }
    const located = await this.#locate(MEETING, MEETING.split('/'));
    if (!located.ok) return located;
    // One append at a time per transcript in this process: a second append would otherwise put
    // its lines between the first one's, or cut a line the first is still writing as torn.
    const real = located.value.real;
    const previous = meetingAppends.get(real) ?? Promise.resolve();
    const turn = previous.then(() => this.#appendLines(real, located.value.exists, entries));
    const settled = turn.then(
      () => {},
      () => {},
    );
    meetingAppends.set(real, settled);
    try {
      return await turn;
    } finally {
      if (meetingAppends.get(real) === settled) meetingAppends.delete(real);
    }
  }

  async #appendLines(
    real: string,
    existed: boolean,
    entries: readonly MeetingEntry[],
  ): Outcome<MeetingAppend> {
    let handle: FileHandle | undefined;
    try {
      await mkdir(path.dirname(real), { recursive: true });
      handle = await open(real, 'a+');
      const repaired = await cutTornLine(handle);
      for (const entry of entries) {
        const line = formatEntry(entry);
        // A write may take only part of the line (a disk nearly full): write the rest.
        for (let written = 0; written < line.length; ) {
          written += (await handle.write(line, written)).bytesWritten;
        }
        await handle.datasync();
      }
      if (!existed) await syncDirectory(path.dirname(real));
      return { ok: true, value: { appended: entries.length, repaired } };
    } catch (error) {
      return io('Appending to', MEETING, error);
    } finally {
      await handle?.close();
    }
  }

  async readMeeting(): Outcome<MeetingRead> {
    const located = await this.#locate(MEETING, MEETING.split('/'));
    if (!located.ok) return located;
    if (!located.value.exists) return { ok: true, value: { entries: [], torn: null } };
    let handle: FileHandle | undefined;
    try {
      handle = await open(located.value.real, 'r');
      return parseMeeting(await handle.readFile(), MEETING);
    } catch (error) {
      return io('Reading', MEETING, error);
    } finally {
      await handle?.close();
    }
  }

  async archiveMeeting(): Outcome<string | null> {
    const located = await this.#locate(MEETING, MEETING.split('/'));
    if (!located.ok) return located;
    if (!located.value.exists) return { ok: true, value: null };
    const archive = await this.#locate('planning/archive', ['planning', 'archive']);
    if (!archive.ok) return archive;
    try {
      await mkdir(archive.value.real, { recursive: true });
      let next = 1;
      for (const name of await readdir(archive.value.real)) {
        const match = ARCHIVED_MEETING.exec(name);
        if (match !== null) next = Math.max(next, Number(match[1]) + 1);
      }
      const name = `meeting_${next}.jsonl`;
      await rename(located.value.real, path.join(archive.value.real, name));
      await syncDirectory(archive.value.real);
      await syncDirectory(path.dirname(located.value.real));
      return { ok: true, value: `planning/archive/${name}` };
    } catch (error) {
      return io('Archiving', MEETING, error);
    }
  }
}

/** Cuts off bytes after the last newline (a line a crash cut short), reporting what it cut. */
async function cutTornLine(handle: FileHandle): Promise<TornLine | null> {
  const { size } = await handle.stat();
  if (size === 0) return null;
  let end = size;
  for (;;) {
    const start = Math.max(0, end - TAIL_WINDOW);
    const buffer = Buffer.alloc(end - start);
    await handle.read(buffer, 0, buffer.length, start);
    const newline = buffer.lastIndexOf(0x0a);
    if (newline !== -1 || start === 0) {
      const clean = newline === -1 ? 0 : start + newline + 1;
      if (clean === size) return null;
      await handle.truncate(clean);
      return { offset: clean, bytes: size - clean };
    }
    end = start;
  }
}

/**
 * Opens the workspace of one job: a folder every path stays inside. Paths are relative and
 * `/`-separated; `..`, absolute paths, NUL bytes and backslashes are `path_invalid`, and a
 * path that leads outside the root through a symlink is `path_outside_root`.
 *
 * @returns the workspace, or a {@link WorkspaceError}: `root_invalid` (missing, not a folder,
 *   bad options), `io`
 * @example
 * ```ts
 * const opened = await openWorkspace('jobs/job-42', { create: true });
 * if (!opened.ok) throw opened.error;
 * const workspace = opened.value;
 * await workspace.writeMemory('# Workspace\n');
 * ```
 * @public
 */
export async function openWorkspace(
  root: string,
  options: WorkspaceOptions = {},
): Outcome<Workspace> {
  if (typeof root !== 'string' || root === '' || root.includes('\0')) {
    return fail('root_invalid', 'openWorkspace: root must be a folder path.');
  }
  if (typeof options !== 'object' || options === null)
    return fail('root_invalid', 'openWorkspace: options must be an object.');
  const extra = unknownOption(options, OPTION_KEYS);
  if (extra !== undefined)
    return fail('root_invalid', `openWorkspace: options.${extra} is not an option.`);
  const { create = false, maxReadBytes = MIB } = options;
  if (typeof create !== 'boolean')
    return fail('root_invalid', 'openWorkspace: options.create must be a boolean.');
  if (!isLimit(maxReadBytes))
    return fail(
      'root_invalid',
      'openWorkspace: options.maxReadBytes must be a non-negative integer.',
    );
  const absolute = path.resolve(root);
  try {
    if (create) await mkdir(absolute, { recursive: true });
    const real = await realpath(absolute);
    if (!(await stat(real)).isDirectory())
      return fail('root_invalid', `openWorkspace: ${root} is not a folder.`);
    return { ok: true, value: new FolderWorkspace(real, maxReadBytes) };
  } catch (error) {
    if (codeOf(error) === 'ENOENT')
      return fail('root_invalid', `openWorkspace: ${root} does not exist.`, undefined, error);
    return io('Opening', root, error);
  }
}
