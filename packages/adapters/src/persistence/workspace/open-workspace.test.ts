import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Result } from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './open-workspace.ts';
import { WorkspaceError } from './workspace-error.ts';

let dir: string;
let outside: string;
let workspace: Workspace;

function ok<T>(result: Result<T, WorkspaceError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function error(result: Result<unknown, WorkspaceError>): WorkspaceError {
  if (result.ok) throw new Error('expected an error');
  expect(WorkspaceError.isInstance(result.error)).toBe(true);
  return result.error;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plankit-workspace-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'plankit-outside-'));
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  workspace = ok(await openWorkspace(path.join(dir, 'job'), { create: true }));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('openWorkspace', () => {
  it('opens an existing folder, or creates it when asked', async () => {
    expect(workspace.root).toBe(
      path.join(await import('node:fs/promises').then((fs) => fs.realpath(dir)), 'job'),
    );
    expect(error(await openWorkspace(path.join(dir, 'missing'))).code).toBe('root_invalid');
    await writeFile(path.join(dir, 'file'), 'x');
    expect(error(await openWorkspace(path.join(dir, 'file'))).message).toMatch(/is not a folder/);
    expect(error(await openWorkspace('')).code).toBe('root_invalid');
    expect(error(await openWorkspace(dir, { watch: true } as never)).message).toMatch(
      /options.watch is not an option/,
    );
  });
});

describe('reading and writing', () => {
  it('writes atomically, creating folders, and reads back', async () => {
    expect(ok(await workspace.writeText('notes/a.md', 'héllo'))).toEqual({
      path: 'notes/a.md',
      bytes: 6,
    });
    expect(ok(await workspace.readText('notes/a.md'))).toBe('héllo');
    expect(ok(await workspace.readText('./notes//a.md'))).toBe('héllo');
    ok(await workspace.writeText('notes/a.md', 'again'));
    expect(ok(await workspace.readText('notes/a.md'))).toBe('again');
    expect(await readdir(path.join(workspace.root, 'notes'))).toEqual(['a.md']);
    expect(ok(await workspace.readText('missing.md'))).toBeNull();
    expect(ok(await workspace.readText('notes/missing/deeper.md'))).toBeNull();
  });

  it('reports files over the limit without reading them', async () => {
    await writeFile(
      path.join(workspace.root, 'todos.yaml'),
      `todos: [${'x'.repeat(10 * 1024 * 1024)}`,
    );
    expect(ok(await workspace.readTodos())).toEqual({
      kind: 'oversized',
      bytes: 10 * 1024 * 1024 + 8,
    });
    expect(ok(await workspace.readText('todos.yaml'))).toEqual({
      kind: 'oversized',
      bytes: 10 * 1024 * 1024 + 8,
    });
    expect(typeof ok(await workspace.readText('todos.yaml', { maxBytes: 20 * 1024 * 1024 }))).toBe(
      'string',
    );
  });

  it('refuses folders as files, and the root', async () => {
    await mkdir(path.join(workspace.root, 'folder'));
    expect(error(await workspace.readText('folder')).code).toBe('not_a_file');
    expect(error(await workspace.writeText('folder', 'x')).code).toBe('not_a_file');
    expect(error(await workspace.writeText('.', 'x')).code).toBe('not_a_file');
  });

  it('refuses .., absolute paths, NUL bytes and backslashes, touching nothing', async () => {
    for (const bad of [
      '../escape.txt',
      '/tmp/escape.txt',
      'a/../../escape.txt',
      'nul\0.txt',
      '..\\escape.txt',
    ]) {
      expect(error(await workspace.writeText(bad, 'x')).code).toBe('path_invalid');
      expect(error(await workspace.readText(bad)).code).toBe('path_invalid');
      expect(error(await workspace.list(bad)).code).toBe('path_invalid');
    }
    expect(await readdir(dir)).toEqual(['job']);
  });

  it('refuses symlinks out of the root, for reads, writes, listings and the transcript', async () => {
    await symlink(outside, path.join(workspace.root, 'out'));
    await symlink(path.join(outside, 'secret.txt'), path.join(workspace.root, 'secret.txt'));
    await symlink(outside, path.join(workspace.root, 'planning'));
    expect(error(await workspace.readText('out/secret.txt')).code).toBe('path_outside_root');
    expect(error(await workspace.readText('secret.txt')).code).toBe('path_outside_root');
    expect(error(await workspace.readText('out/missing.txt')).code).toBe('path_outside_root');
    expect(error(await workspace.writeText('out/new.txt', 'x')).code).toBe('path_outside_root');
    expect(error(await workspace.writeText('out/deep/new.txt', 'x')).code).toBe(
      'path_outside_root',
    );
    expect(error(await workspace.writeText('secret.txt', 'overwritten')).code).toBe(
      'path_outside_root',
    );
    expect(error(await workspace.list('out')).code).toBe('path_outside_root');
    expect(
      error(await workspace.appendMeeting([{ round: 1, actor: 'a', phase: 'draft', content: 'x' }]))
        .code,
    ).toBe('path_outside_root');
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('replaces a dangling symlink with a file instead of writing through it', async () => {
    await symlink(path.join(outside, 'planted.txt'), path.join(workspace.root, 'notes.md'));
    expect(ok(await workspace.readText('notes.md'))).toBeNull();
    ok(await workspace.writeText('notes.md', 'mine'));
    expect(ok(await workspace.readText('notes.md'))).toBe('mine');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('follows symlinks that stay inside the root', async () => {
    ok(await workspace.writeText('real/plan.md', '# Plan'));
    await symlink(path.join(workspace.root, 'real'), path.join(workspace.root, 'alias'));
    expect(ok(await workspace.readText('alias/plan.md'))).toBe('# Plan');
    ok(await workspace.writeText('alias/plan.md', '# New'));
    expect(ok(await workspace.readText('real/plan.md'))).toBe('# New');
  });

  it('lists recursively, sorted, symlinks not followed', async () => {
    ok(await workspace.writeText('b.md', 'bb'));
    ok(await workspace.writeText('a/z.md', 'z'));
    ok(await workspace.writeText('a/b/c.md', 'ccc'));
    await symlink(outside, path.join(workspace.root, 'link'));
    expect(ok(await workspace.list())).toEqual([
      { path: 'a', kind: 'directory', bytes: 0 },
      { path: 'a/b', kind: 'directory', bytes: 0 },
      { path: 'a/b/c.md', kind: 'file', bytes: 3 },
      { path: 'a/z.md', kind: 'file', bytes: 1 },
      { path: 'b.md', kind: 'file', bytes: 2 },
      { path: 'link', kind: 'symlink', bytes: 0 },
    ]);
    expect(ok(await workspace.list('a', { maxEntries: 2 })).map((e) => e.path)).toEqual([
      'a/b',
      'a/b/c.md',
    ]);
    expect(error(await workspace.list('nowhere')).code).toBe('not_found');
    expect(error(await workspace.list('b.md')).code).toBe('not_a_file');
  });
});

describe('workspace.md', () => {
  it('reads as empty when missing, and is replaced whole', async () => {
    expect(ok(await workspace.readMemory())).toBe('');
    ok(await workspace.writeMemory('# Workspace\n'));
    expect(ok(await workspace.readMemory())).toBe('# Workspace\n');
  });
});
