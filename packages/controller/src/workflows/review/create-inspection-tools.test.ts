import { invokeTool, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { completeTodo } from '../phases/complete-todo.ts';
import { MemoryFiles } from '../testing/memory-files.ts';
import { waitingJob } from '../testing/review-fixtures.ts';
import { unwrap } from '../testing/unwrap.ts';
import { createInspectionTools } from './create-inspection-tools.ts';
import { requestChanges } from './request-changes.ts';

const T0 = Date.UTC(2026, 0, 15, 9);

function setup() {
  const files = new MemoryFiles();
  files.files.set('main_plan.md', '# Plan\n\nPhase 1: extract.\n');
  files.files.set('workspace.md', '# Workspace\n\nThe PDF is in docs/input.pdf.\n');
  files.files.set('docs/notes.md', 'GoBD applies.\nNothing else.\n');
  files.files.set('archive/phase_2.yaml', 'phaseNumber: 2\n');
  files.files.set('big.log', 'x'.repeat(300 * 1024));
  let job = waitingJob(T0);
  job = unwrap(requestChanges(job, { now: T0 + 1000, feedback: 'Split phase 1.' }));
  job = unwrap(completeTodo(job, { id: 1, now: T0 + 2000 }));
  const tools = createInspectionTools({ job: () => job, files });
  const session = new Session();
  const call = async (name: string, args: unknown = {}) => {
    const tool = tools.find((t) => t.name === name);
    if (tool === undefined) throw new Error(name);
    return invokeTool(tool, args, { session });
  };
  return { tools, call, session };
}

describe('createInspectionTools', () => {
  it('are read-only tools: no result type, so only the call log grows', async () => {
    const { tools, call, session } = setup();
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_job',
      'get_todos',
      'get_trace',
      'read_plan',
      'read_workspace_file',
      'list_workspace_files',
      'search_workspace',
    ]);
    expect(tools.every((tool) => tool.resultType === null)).toBe(true);
    await call('get_job');
    expect(Object.keys(session.snapshot().slices)).toEqual(['plankit.ToolCall']);
  });

  it('get_job shows the status, the review and the feedback', async () => {
    const { call } = setup();
    expect(await call('get_job')).toMatchObject({
      message: 'Job job-7: running strategic phase 2 (revision).',
      value: [
        'Todos: 1 of 4 completed.',
        'Review: required, 1 change request (soft limit 3).',
        'Feedback, cycle 1 (2026-01-15T09:00:01.000Z): Split phase 1.',
      ].join('\n'),
    });
  });

  it('get_todos shows the current todos, and an archived phase by number', async () => {
    const { call } = setup();
    const result = await call('get_todos');
    expect(result.message).toBe(
      'Strategic phase 2 (revision) of job job-7, 1 of 4 todos completed:',
    );
    const current = String(result.success && result.value);
    expect(current).toContain('- [x] 1. Read the review feedback');
    expect(current).toContain('- [ ] 2. Revise main_plan.md');
    expect(current.split('\n').at(-1)).toBe('Archived tactical phases: 2.');
    expect(await call('get_todos', { phase: 2 })).toMatchObject({
      message: 'archive/phase_2.yaml of job job-7:',
      value: 'phaseNumber: 2\n',
    });
    expect((await call('get_todos', { phase: 4 })).message).toBe(
      'Tool validation failed: No archive of phase 4; archived phases: 2.',
    );
  });

  it('get_todos shows the todos waiting for review', async () => {
    const files = new MemoryFiles();
    const [, getTodos] = createInspectionTools({ job: waitingJob(T0), files });
    const result = await invokeTool(getTodos, {}, { session: new Session() });
    const text = String(result.success && result.value);
    expect(text).toContain(
      'Todos for the next tactical phase, waiting for review ("Phase 1: Extract"):\n- 1. Task 1',
    );
    expect(text).toContain('Archived tactical phases: none.');
  });

  it('get_trace shows the steps with their reasons', async () => {
    const { call } = setup();
    expect(await call('get_trace')).toMatchObject({
      message: 'Trace of job job-7: 2 steps.',
      value: [
        '1. 2026-01-15T09:00:00.000Z strategic --handoff_held--> pending_review: 5 todos wait for review',
        '2. 2026-01-15T09:00:01.000Z pending_review --changes_requested--> strategic: Split phase 1.',
      ].join('\n'),
    });
    expect((await call('get_trace', { last: 1 })).message).toBe(
      'Trace of job job-7: 2 steps, the last 1 shown.',
    );
  });

  it('read the plan and the workspace files, inside the workspace only', async () => {
    const { call } = setup();
    expect(await call('read_plan')).toMatchObject({
      message: 'main_plan.md:',
      value: '# Plan\n\nPhase 1: extract.\n',
    });
    expect(await call('read_workspace_file', { path: 'docs/notes.md' })).toMatchObject({
      message: 'docs/notes.md:',
      value: 'GoBD applies.\nNothing else.\n',
    });
    expect((await call('read_workspace_file', { path: 'missing.md' })).message).toBe(
      'Tool validation failed: File not found: missing.md.',
    );
    for (const path of ['../etc/passwd', '/etc/passwd', 'docs/../../x', 'a\0b']) {
      const refused = await call('read_workspace_file', { path });
      expect(refused.success, path).toBe(false);
    }
    expect((await call('read_workspace_file', { path: 'big.log' })).message).toBe(
      'Tool validation failed: big.log is 307200 bytes, over the 262144-byte limit.',
    );
  });

  it('list and search the workspace', async () => {
    const { call } = setup();
    expect(await call('list_workspace_files', { path: 'docs' })).toMatchObject({
      message: 'Entries under docs:',
      value: 'docs/notes.md (28 bytes)',
    });
    const root = await call('list_workspace_files');
    expect(String(root.success && root.value).split('\n')).toContain('archive/');
    expect(await call('search_workspace', { query: 'gobd' })).toMatchObject({
      message: '1 line contains "gobd":',
      value: 'docs/notes.md:1: GoBD applies.',
    });
    expect((await call('search_workspace', { query: 'nowhere' })).message).toBe(
      'No line contains "nowhere" (4 files searched).',
    );
  });

  it('refuses bad options', () => {
    const files = new MemoryFiles();
    expect(() => createInspectionTools({ job: {} as never, files })).toThrow(/options.job/);
    expect(() => createInspectionTools({ job: waitingJob(T0), files: {} as never })).toThrow(
      /options.files/,
    );
    expect(() => createInspectionTools({ job: waitingJob(T0), files, planPath: '' })).toThrow(
      /planPath/,
    );
  });
});
