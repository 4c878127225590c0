import { invokeTool, Session, selectLatest } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MemoryFiles } from '../testing/memory-files.ts';
import { todosYaml } from '../testing/unwrap.ts';
import { createPhaseTools } from './create-phase-tools.ts';
import { PhaseJob } from './phase-job.ts';
import { startPhaseJob } from './start-phase-job.ts';

function setup(options: { interactive?: boolean } = {}) {
  let clock = 1000;
  const session = new Session({ sessionId: 'tools', clock: () => clock++ });
  const files = new MemoryFiles();
  const [todoComplete, todoWrite, jobComplete] = createPhaseTools(session, { files });
  session.dispatch(PhaseJob, startPhaseJob({ jobId: 'job-1', now: 0, ...options }));
  const job = () => selectLatest(session, PhaseJob) as PhaseJob;
  return { session, files, todoComplete, todoWrite, jobComplete, job };
}

const SIX = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, content: `Task ${i + 1}` }));

describe('createPhaseTools', () => {
  it('drives a job through a rejected hand-off, a tactical phase and job_complete', async () => {
    const { session, files, todoComplete, todoWrite, jobComplete, job } = setup();
    for (const id of [1, 2, 3]) {
      const done = await invokeTool(todoComplete, { id }, { session });
      expect(done.message).toBe(
        `Todo ${id} completed. ${4 - id} todo${id === 3 ? '' : 's'} left in strategic phase 1.`,
      );
    }
    // The agent wrote four todos with a workspace tool: rejected, todo 4 stays in progress.
    files.files.set('todos.yaml', todosYaml(4));
    const rejected = await invokeTool(todoComplete, { id: 4 }, { session });
    expect(rejected).toMatchObject({
      success: true,
      message: 'Phase transition rejected: Expected 5-20 todos, got 4.',
    });
    expect(job().todos[3]?.status).toBe('in_progress');

    // todo_write checks the document with the hand-off's own rules.
    const short = await invokeTool(todoWrite, { todos: SIX.slice(0, 3) }, { session });
    expect(short.message).toBe('Tool validation failed: Expected 5-20 todos, got 3.');
    const written = await invokeTool(
      todoWrite,
      { phase: 'Phase 1: Extract', todos: SIX },
      { session },
    );
    expect(written.message).toBe('Wrote 6 todos to todos.yaml.');
    expect(parse(files.files.get('todos.yaml') ?? '')).toEqual({
      phase: 'Phase 1: Extract',
      todos: SIX,
    });

    const handed = await invokeTool(todoComplete, { id: 4 }, { session });
    expect(handed.message).toBe(
      'Todo 4 completed. todos.yaml passed validation: tactical phase 2 starts with 6 todos.',
    );
    expect(handed.success && handed.value.signals[1]).toEqual({ type: 'history_reset' });
    // The hand-off consumed todos.yaml: archived, so the next strategic phase must write its own.
    expect(files.files.has('todos.yaml')).toBe(false);
    expect(files.files.has('archive/todos_phase_1.yaml')).toBe(true);
    expect(job()).toMatchObject({ phase: 'tactical', phaseNumber: 2 });

    // Tactical: job_complete and todo_write are refused, and change nothing.
    const early = await invokeTool(jobComplete, {}, { session });
    expect(early.success).toBe(false);
    expect(early.message).toMatch(
      /^Tool validation failed: job_complete is only available in strategic phases; this is tactical phase 2\./,
    );
    const plan = await invokeTool(todoWrite, { todos: SIX }, { session });
    expect(plan.message).toMatch(
      /^Tool validation failed: todo_write is only available in strategic phases; this is tactical phase 2\./,
    );
    expect(job().phase).toBe('tactical');

    for (const id of [1, 2, 3, 4, 5]) await invokeTool(todoComplete, { id }, { session });
    const archived = await invokeTool(todoComplete, { id: 6 }, { session });
    expect(archived.message).toBe(
      'Todo 6 completed. Tactical phase 2 is done and archived to archive/phase_2.yaml; strategic phase 3 starts.',
    );
    expect(parse(files.files.get('archive/phase_2.yaml') ?? '')).toMatchObject({
      phaseNumber: 2,
      title: 'Phase 1: Extract',
    });

    const end = await invokeTool(jobComplete, { summary: 'Done.' }, { session });
    expect(end).toMatchObject({ success: true, message: 'The job is complete.' });
    expect(job().machine.state).toBe('complete');
    const after = await invokeTool(todoComplete, { id: 1 }, { session });
    expect(after.message).toBe('Tool validation failed: The job is complete.');
  });

  it('refuses ids as strings, unknown and completed todos, and unknown keys', async () => {
    const { session, todoComplete } = setup();
    expect((await invokeTool(todoComplete, { id: '1' }, { session })).message).toBe(
      'Tool validation failed: id: Invalid input: expected number, received string',
    );
    expect((await invokeTool(todoComplete, { id: 9 }, { session })).message).toBe(
      'Tool validation failed: Todo 9 is not in strategic phase 1; its todos are 1, 2, 3, 4.',
    );
    await invokeTool(todoComplete, { id: 1 }, { session });
    const again = await invokeTool(todoComplete, { id: 1 }, { session });
    expect(again.message).toBe('Tool validation failed: Todo 1 is already completed.');
    expect(again.success === false && again.error.code).toBe('status_invalid');
    expect((await invokeTool(todoComplete, { id: 2, force: true }, { session })).success).toBe(
      false,
    );
  });

  it('refuses every change while the plan waits for review', async () => {
    const { session, files, todoComplete, todoWrite, job } = setup({ interactive: true });
    files.files.set('todos.yaml', todosYaml(5));
    for (const id of [1, 2, 3]) await invokeTool(todoComplete, { id }, { session });
    const held = await invokeTool(todoComplete, { id: 4 }, { session });
    expect(held.message).toBe(
      'Todo 4 completed. The plan is ready for review: the job pauses until a person approves it or requests changes.',
    );
    expect(job().machine.state).toBe('pending_review');
    const refused = await invokeTool(todoWrite, { todos: SIX }, { session });
    expect(refused.message).toBe(
      'Tool validation failed: The plan is waiting for review: nothing can change until a person approves it or requests changes.',
    );
  });

  it('reports a workspace failure as an execution failure and leaves the job alone', async () => {
    const { session, files, todoComplete, job } = setup();
    files.readTodos = async () => ({ ok: false, error: { code: 'io', message: 'disk on fire' } });
    for (const id of [1, 2, 3]) await invokeTool(todoComplete, { id }, { session });
    const failed = await invokeTool(todoComplete, { id: 4 }, { session });
    expect(failed.message).toBe(
      "Tool 'todo_complete' execution failed: Reading todos.yaml failed: disk on fire",
    );
    expect(job().todos[3]?.status).toBe('pending');
  });

  it('needs a job in the session, a Session and a files port', async () => {
    const session = new Session();
    const [todoComplete] = createPhaseTools(session, { files: new MemoryFiles() });
    expect((await invokeTool(todoComplete, { id: 1 }, { session })).message).toMatch(
      /holds no phase job/,
    );
    expect(() => createPhaseTools({} as never, { files: new MemoryFiles() })).toThrow(/session/);
    expect(() => createPhaseTools(session, { files: {} as never })).toThrow(/options.files/);
    expect(() =>
      createPhaseTools(session, { files: new MemoryFiles(), extra: 1 } as never),
    ).toThrow(/options.extra/);
  });
});
