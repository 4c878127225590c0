import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openWorkspace, type Workspace } from '@plankit/adapters/workspace';
import { invokeTool, Session, selectLatest } from '@plankit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { todosYaml } from '../testing/unwrap.ts';
import { createPhaseTools } from './create-phase-tools.ts';
import { PhaseJob } from './phase-job.ts';
import { phaseJobFromJSON } from './phase-job-from-json.ts';
import { type PhaseJobOptions, startPhaseJob } from './start-phase-job.ts';

let dir: string;
let workspace: Workspace;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plankit-phase-options-'));
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

/** Runs strategic phase 1 and tactical phase 2 to the start of strategic phase 3. */
async function toTransition(options: Partial<PhaseJobOptions> = {}) {
  const session = new Session({ clock: () => 1 });
  const [todoComplete] = createPhaseTools(session, { files: workspace });
  session.dispatch(PhaseJob, startPhaseJob({ jobId: 'job-1', now: 0, ...options }));
  const job = () => selectLatest(session, PhaseJob) as PhaseJob;
  const complete = async (id: number) =>
    (await invokeTool(todoComplete, { id }, { session })).message;
  for (const id of [1, 2, 3]) await complete(id);
  await writeFile(path.join(dir, 'todos.yaml'), todosYaml(5, 'Phase 1: Build'));
  expect(await complete(4)).toContain('tactical phase 2 starts with 5 todos');
  for (const id of [1, 2, 3, 4, 5]) await complete(id);
  expect(job()).toMatchObject({ phase: 'strategic', phaseNumber: 3, phaseKind: 'transition' });
  return { session, job, complete };
}

describe('phase-file options over the real workspace (seed 001)', () => {
  it('archives each finished tactical phase and moves the consumed todos.yaml to the archive by default', async () => {
    const { job, complete } = await toTransition();
    expect(job().settings).toMatchObject({ archiveOnTransition: true, todosOnHandoff: 'archive' });
    expect(await exists('archive/phase_2.yaml')).toBe(true);
    expect(await exists('todos.yaml')).toBe(false);
    expect(await readFile(path.join(dir, 'archive/todos_phase_1.yaml'), 'utf8')).toBe(
      todosYaml(5, 'Phase 1: Build'),
    );
    expect((await workspace.listArchives()).ok && (await workspace.listArchives())).toEqual({
      ok: true,
      value: [2],
    });

    // The transition phase writes no new todos: the hand-off is refused, not a re-run of phase 2.
    for (const id of [1, 2, 3]) await complete(id);
    expect(await complete(4)).toBe(
      'Phase transition rejected: todos.yaml not found: the last hand-off consumed the previous todos, so this phase must write its own with todo_write (or call job_complete if the plan is fully executed).',
    );
    expect(job()).toMatchObject({ phase: 'strategic', phaseNumber: 3 });
    expect(job().todos.at(-1)?.status).toBe('in_progress');

    await writeFile(path.join(dir, 'todos.yaml'), todosYaml(6, 'Phase 2: Ship'));
    expect(await complete(4)).toContain('tactical phase 4 starts with 6 todos');
    expect(await exists('archive/todos_phase_3.yaml')).toBe(true);
  });

  it('removes the consumed todos.yaml with todosOnHandoff: remove', async () => {
    const { job, complete } = await toTransition({ todosOnHandoff: 'remove' });
    expect(await exists('todos.yaml')).toBe(false);
    expect(await exists('archive/todos_phase_1.yaml')).toBe(false);
    for (const id of [1, 2, 3]) await complete(id);
    expect(await complete(4)).toMatch(/^Phase transition rejected: todos\.yaml not found: /);
    expect(phaseJobFromJSON(JSON.parse(JSON.stringify(job())))).toMatchObject({
      ok: true,
      value: { settings: { todosOnHandoff: 'remove' } },
    });
  });

  it('writes no phase archive with archiveOnTransition: false', async () => {
    const { job } = await toTransition({ archiveOnTransition: false });
    expect(await exists('archive/phase_2.yaml')).toBe(false);
    expect(job().signals.map((s) => s.type)).toEqual(['history_reset', 'phase_started']);
    expect(await workspace.listArchives()).toEqual({ ok: true, value: [] });
  });

  it('reads jobs stored before the options existed with the seed defaults, and refuses bad options', () => {
    const stored = JSON.parse(JSON.stringify(startPhaseJob({ jobId: 'job-1', now: 0 })));
    delete stored.settings.archiveOnTransition;
    delete stored.settings.todosOnHandoff;
    expect(phaseJobFromJSON(stored)).toMatchObject({
      ok: true,
      value: { settings: { archiveOnTransition: true, todosOnHandoff: 'archive' } },
    });
    expect(() => startPhaseJob({ jobId: 'j', now: 0, archiveOnTransition: 'no' as never })).toThrow(
      /options\.archiveOnTransition must be a boolean/,
    );
    expect(() => startPhaseJob({ jobId: 'j', now: 0, todosOnHandoff: 'keep' as never })).toThrow(
      /options\.todosOnHandoff must be archive or remove/,
    );
  });
});
