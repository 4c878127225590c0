import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Result } from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openWorkspace, type Workspace } from './open-workspace.ts';
import { parseArchive } from './phase-yaml.ts';
import type { WorkspaceError } from './workspace-error.ts';

let dir: string;
let workspace: Workspace;

function ok<T>(result: Result<T, WorkspaceError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plankit-yaml-'));
  workspace = ok(await openWorkspace(dir));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const TODOS = Array.from({ length: 5 }, (_, i) => ({
  id: i + 1,
  content: `Task ${i + 1}: "quoted" # not a comment`,
}));

describe('todos.yaml', () => {
  it('is written with the yaml package: phase and description when set, then todos', async () => {
    ok(await workspace.writeTodos({ phase: 'Phase 1: Extract', description: null, todos: TODOS }));
    const text = ok(await workspace.readTodos());
    expect(text).toMatch(/^phase: "Phase 1: Extract"\ntodos:\n {2}- id: 1\n/);
    expect(parse(text as string)).toEqual({ phase: 'Phase 1: Extract', todos: TODOS });
    expect(ok(await workspace.readTodos({ maxBytes: 10 }))).toMatchObject({ kind: 'oversized' });
  });

  it('refuses a document that is not one', async () => {
    const bad = await workspace.writeTodos({ todos: [{ id: '1', content: 'x' }] } as never);
    expect(bad.ok === false && bad.error.message).toBe(
      'writeTodos: the document todos[0] must be { id: integer, content: string }.',
    );
  });
});

describe('archive/phase_N.yaml', () => {
  const archive = {
    phaseNumber: 2,
    title: 'Phase 1: Extract',
    description: null,
    todos: TODOS.map((todo) => ({ ...todo, status: 'completed' })),
  };

  it('round-trips and lists the archived phases in order', async () => {
    expect(ok(await workspace.listArchives())).toEqual([]);
    ok(await workspace.writeArchive(archive));
    ok(await workspace.writeArchive({ ...archive, phaseNumber: 10 }));
    ok(await workspace.writeArchive({ ...archive, phaseNumber: 4 }));
    expect(ok(await workspace.readArchive(2))).toEqual(archive);
    expect(ok(await workspace.readArchive(3))).toBeNull();
    expect(ok(await workspace.listArchives())).toEqual([2, 4, 10]);
    const text = ok(await workspace.readText('archive/phase_2.yaml'));
    expect(text).toMatch(
      /^phase_number: 2\ntitle: "Phase 1: Extract"\ndescription: null\ntodos:\n/,
    );
  });

  it('reports a damaged archive as corrupt', async () => {
    ok(await workspace.writeText('archive/phase_5.yaml', 'phase_number: 5\ntodos: nope\n'));
    const read = await workspace.readArchive(5);
    expect(read.ok === false && read.error.code).toBe('corrupt');
    ok(await workspace.writeText('archive/phase_6.yaml', 'a: [\n'));
    expect((await workspace.readArchive(6)).ok).toBe(false);
    expect((await workspace.readArchive(0)).ok).toBe(false);
    ok(await workspace.writeText('archive/phase_7.yaml', '- '.repeat(30_000)));
    const deep = await workspace.readArchive(7);
    expect(deep.ok === false && deep.error.message).toBe(
      'archive/phase_7.yaml is not a phase archive: line 1 nests more than 64 levels.',
    );
  });
});

describe('parseArchive', () => {
  it('refuses duplicate keys, and deep nesting hidden behind a quote in a plain scalar', () => {
    const archive = 'phase_number: 1\ntitle: null\ndescription: null\ntodos: []\n';
    expect(parseArchive(`${archive}title: again\n`)).toMatch(/Map keys must be unique/);
    expect(parseArchive(`${archive}note: x "\nmore: ${'['.repeat(50_000)}\n`)).toMatch(
      /nests more than 64 levels/,
    );
    expect(parseArchive(archive)).toEqual({
      phaseNumber: 1,
      title: null,
      description: null,
      todos: [],
    });
  });
});
