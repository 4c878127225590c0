import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openWorkspace, type Workspace } from '@plankit/adapters/workspace';
import { invokeTool, Session, selectLatest } from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { todosYaml } from '../testing/unwrap.ts';
import { createPhaseTools } from './create-phase-tools.ts';
import { PhaseJob } from './phase-job.ts';
import { startPhaseJob } from './start-phase-job.ts';
import { validateTodos } from './validate-todos.ts';

let dir: string;
let workspace: Workspace;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plankit-phase-tools-'));
  const opened = await openWorkspace(dir);
  if (!opened.ok) throw opened.error;
  workspace = opened.value;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the phase tools over @plankit/adapters/workspace', () => {
  it('hand off through todos.yaml on disk and archive to archive/phase_N.yaml', async () => {
    const session = new Session({ clock: () => 1 });
    const [todoComplete, todoWrite] = createPhaseTools(session, { files: workspace });
    session.dispatch(PhaseJob, startPhaseJob({ jobId: 'job-1', now: 0 }));
    for (const id of [1, 2, 3]) await invokeTool(todoComplete, { id }, { session });

    await writeFile(path.join(dir, 'todos.yaml'), `todos: [${'x'.repeat(10 * 1024 * 1024)}`);
    expect((await invokeTool(todoComplete, { id: 4 }, { session })).message).toBe(
      'Phase transition rejected: todos.yaml is 10485768 bytes; the limit is 65536 bytes.',
    );
    await writeFile(path.join(dir, 'todos.yaml'), todosYaml(5).replace('id: 1', 'id: "1"'));
    expect((await invokeTool(todoComplete, { id: 4 }, { session })).message).toBe(
      'Phase transition rejected: todos[0].id must be an integer, got "1" (a string).',
    );

    const todos = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, content: `Task ${i + 1}` }));
    await invokeTool(todoWrite, { phase: 'Phase 1', todos }, { session });
    const written = await workspace.readTodos();
    expect(written.ok && typeof written.value === 'string' && validateTodos(written.value).ok).toBe(
      true,
    );
    expect((await invokeTool(todoComplete, { id: 4 }, { session })).message).toBe(
      'Todo 4 completed. todos.yaml passed validation: tactical phase 2 starts with 5 todos.',
    );
    for (const id of [1, 2, 3, 4, 5]) await invokeTool(todoComplete, { id }, { session });
    expect(selectLatest(session, PhaseJob)?.phaseNumber).toBe(3);
    const archive = await workspace.readArchive(2);
    expect(archive.ok && archive.value).toEqual({
      phaseNumber: 2,
      title: 'Phase 1',
      description: null,
      todos: todos.map((todo) => ({ ...todo, status: 'completed' })),
    });
  });
});
