import type { Result } from '@plankit/core';
import { stringify } from 'yaml';
import { isRelativePath } from '../internal/relative-path.ts';
import type { PhaseFiles, WorkspaceProblem } from '../phases/create-phase-tools.ts';
import type { PhaseArchive } from '../phases/phase-archive.ts';
import type { OversizedFile, TodosDocument } from '../phases/validate-todos.ts';
import type { InspectionFiles, WorkspaceEntry } from '../review/create-inspection-tools.ts';

/**
 * An in-memory workspace for the controller's tests: the ports of the phase and inspection
 * tools over a Map, with the workspace module's path rule. The real one is
 * `@plankit/adapters/workspace`, tested against the same tools there.
 */
export class MemoryFiles implements PhaseFiles, InspectionFiles {
  readonly files: Map<string, string> = new Map();

  #path(path: string): Result<string, WorkspaceProblem> {
    const normal = path === '.' ? '' : path.replace(/^\.\//, '');
    if (normal !== '' && !isRelativePath(normal)) {
      return {
        ok: false,
        error: { code: 'path_invalid', message: `Path ${path} is outside the workspace.` },
      };
    }
    return { ok: true, value: normal };
  }

  async readText(
    path: string,
    options: { readonly maxBytes?: number | undefined } = {},
  ): Promise<Result<string | OversizedFile | null, WorkspaceProblem>> {
    const checked = this.#path(path);
    if (!checked.ok) return checked;
    const text = this.files.get(checked.value);
    if (text === undefined) return { ok: true, value: null };
    const bytes = Buffer.byteLength(text);
    if (bytes > (options.maxBytes ?? 1024 * 1024))
      return { ok: true, value: { kind: 'oversized', bytes } };
    return { ok: true, value: text };
  }

  async list(
    path = '.',
    options: { readonly maxEntries?: number | undefined } = {},
  ): Promise<Result<readonly WorkspaceEntry[], WorkspaceProblem>> {
    const checked = this.#path(path);
    if (!checked.ok) return checked;
    const prefix = checked.value === '' ? '' : `${checked.value}/`;
    const entries = new Map<string, WorkspaceEntry>();
    for (const [name, text] of this.files) {
      if (!name.startsWith(prefix)) continue;
      const parts = name.split('/');
      for (let i = prefix.split('/').length; i < parts.length; i++) {
        const folder = parts.slice(0, i).join('/');
        entries.set(folder, { path: folder, kind: 'directory', bytes: 0 });
      }
      entries.set(name, { path: name, kind: 'file', bytes: Buffer.byteLength(text) });
    }
    const sorted = [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
    return { ok: true, value: sorted.slice(0, options.maxEntries ?? 1000) };
  }

  async readTodos(options: {
    readonly maxBytes: number;
  }): Promise<Result<string | OversizedFile | null, WorkspaceProblem>> {
    return this.readText('todos.yaml', options);
  }

  async writeTodos(document: TodosDocument): Promise<Result<unknown, WorkspaceProblem>> {
    const { phase, description, todos } = document;
    this.files.set(
      'todos.yaml',
      stringify({
        ...(phase === null ? {} : { phase }),
        ...(description === null ? {} : { description }),
        todos,
      }),
    );
    return { ok: true, value: undefined };
  }

  async consumeTodos(consumed: {
    readonly action: 'archive' | 'remove';
    readonly archivePath: string | null;
  }): Promise<Result<unknown, WorkspaceProblem>> {
    const text = this.files.get('todos.yaml');
    if (text === undefined) return { ok: true, value: null };
    this.files.delete('todos.yaml');
    if (consumed.action === 'archive' && consumed.archivePath !== null)
      this.files.set(consumed.archivePath, text);
    return { ok: true, value: consumed.archivePath };
  }

  async writeArchive(archive: PhaseArchive): Promise<Result<unknown, WorkspaceProblem>> {
    this.files.set(`archive/phase_${archive.phaseNumber}.yaml`, stringify(archive));
    return { ok: true, value: undefined };
  }
}
