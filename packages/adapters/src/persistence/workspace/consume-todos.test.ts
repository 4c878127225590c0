import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkspace, type TodosConsumption, type Workspace } from './open-workspace.ts';

let dir: string;
let workspace: Workspace;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plankit-consume-'));
  const opened = await openWorkspace(dir);
  if (!opened.ok) throw opened.error;
  workspace = opened.value;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const exists = (file: string) =>
  access(path.join(dir, file)).then(
    () => true,
    () => false,
  );

describe('Workspace.consumeTodos', () => {
  it('moves todos.yaml to its archive path, creating archive/, and leaves listArchives alone', async () => {
    await writeFile(path.join(dir, 'todos.yaml'), 'todos: []\n');
    const moved = await workspace.consumeTodos({
      action: 'archive',
      archivePath: 'archive/todos_phase_3.yaml',
    });
    expect(moved).toEqual({ ok: true, value: 'archive/todos_phase_3.yaml' });
    expect(await exists('todos.yaml')).toBe(false);
    expect(await readFile(path.join(dir, 'archive/todos_phase_3.yaml'), 'utf8')).toBe(
      'todos: []\n',
    );
    expect(await workspace.listArchives()).toEqual({ ok: true, value: [] });
    expect(await workspace.readTodos()).toEqual({ ok: true, value: null });
  });

  it('removes todos.yaml, and does nothing when it is already gone', async () => {
    await writeFile(path.join(dir, 'todos.yaml'), 'todos: []\n');
    expect(await workspace.consumeTodos({ action: 'remove', archivePath: null })).toEqual({
      ok: true,
      value: null,
    });
    expect(await exists('todos.yaml')).toBe(false);
    expect(await workspace.consumeTodos({ action: 'remove', archivePath: null })).toEqual({
      ok: true,
      value: null,
    });
    expect(
      await workspace.consumeTodos({
        action: 'archive',
        archivePath: 'archive/todos_phase_1.yaml',
      }),
    ).toEqual({ ok: true, value: null });
  });

  it('refuses other actions and archive paths outside archive/todos_phase_N.yaml', async () => {
    await writeFile(path.join(dir, 'todos.yaml'), 'todos: []\n');
    const bad: unknown[] = [
      { action: 'keep', archivePath: null },
      { action: 'archive', archivePath: null },
      { action: 'archive', archivePath: '../escape.yaml' },
      { action: 'archive', archivePath: 'archive/phase_1.yaml' },
      null,
    ];
    for (const consumed of bad) {
      const result = await workspace.consumeTodos(consumed as TodosConsumption);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('input_invalid');
    }
    expect(await exists('todos.yaml')).toBe(true);
  });
});
