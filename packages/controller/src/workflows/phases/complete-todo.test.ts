import { describe, expect, it } from 'vitest';
import { refusal, todosYaml, unwrap } from '../testing/unwrap.ts';
import { completeJob } from './complete-job.ts';
import { completeTodo } from './complete-todo.ts';
import type { PhaseJob } from './phase-job.ts';
import { PREDEFINED_TODOS } from './predefined-todos.ts';
import { startPhaseJob } from './start-phase-job.ts';

const T0 = Date.UTC(2026, 0, 15, 9);

function finishAllBut(job: PhaseJob, last: number, now: number): PhaseJob {
  let next = job;
  for (const todo of job.todos) {
    if (todo.id !== last) next = unwrap(completeTodo(next, { id: todo.id, now }));
  }
  return next;
}

describe('completeTodo', () => {
  it('completes todos of a phase until the last one', () => {
    const job = startPhaseJob({ jobId: 'job-1', now: T0 });
    expect(job.signals).toEqual([
      { type: 'phase_started', phase: 'strategic', phaseNumber: 1, kind: 'initial' },
    ]);
    const next = unwrap(completeTodo(job, { id: 2, now: T0 + 1 }));
    expect(next.todos.map((todo) => todo.status)).toEqual([
      'pending',
      'completed',
      'pending',
      'pending',
    ]);
    expect(next.signals).toEqual([]);
    expect(next.machine).toBe(job.machine);
    expect(Object.isFrozen(next.todos[1])).toBe(true);
    expect(job.todos[1]?.status).toBe('pending');
  });

  it('runs strategic -> tactical -> strategic -> job_complete, with one rejected hand-off fixed by the agent', () => {
    let job = startPhaseJob({ jobId: 'job-1', now: T0 });
    job = finishAllBut(job, 4, T0 + 10);

    // The agent wrote only 4 todos: the hand-off is rejected and todo 4 stays in progress.
    const rejected = unwrap(completeTodo(job, { id: 4, now: T0 + 20, todos: todosYaml(4) }));
    expect(rejected.phase).toBe('strategic');
    expect(rejected.phaseNumber).toBe(1);
    expect(rejected.todos[3]).toEqual({ ...PREDEFINED_TODOS.initial[3], status: 'in_progress' });
    expect(rejected.signals).toEqual([
      {
        type: 'handoff_rejected',
        code: 'todos_count',
        reason: 'Expected 5-20 todos, got 4.',
        message: 'Phase transition rejected: Expected 5-20 todos, got 4.',
      },
    ]);
    expect(rejected.machine.trace.at(-1)).toMatchObject({
      from: 'strategic',
      outcome: 'handoff_rejected',
      to: 'strategic',
      reason: 'Expected 5-20 todos, got 4.',
    });

    // It fixes todos.yaml and completes todo 4 again: tactical phase 2 starts.
    const tactical = unwrap(
      completeTodo(rejected, { id: 4, now: T0 + 30, todos: todosYaml(6, 'Phase 1: Extract') }),
    );
    expect(tactical).toMatchObject({
      phase: 'tactical',
      phaseNumber: 2,
      phaseKind: 'tactical',
      title: 'Phase 1: Extract',
    });
    expect(tactical.todos).toHaveLength(6);
    expect(tactical.todos.every((todo) => todo.status === 'pending')).toBe(true);
    expect(tactical.signals).toEqual([
      {
        type: 'todos_consumed',
        path: 'todos.yaml',
        action: 'archive',
        archivePath: 'archive/todos_phase_1.yaml',
      },
      { type: 'history_reset' },
      { type: 'phase_started', phase: 'tactical', phaseNumber: 2, kind: 'tactical' },
    ]);

    // job_complete is refused in a tactical phase, with a message the agent can act on.
    const early = refusal(completeJob(tactical, { now: T0 + 31 }));
    expect(early.code).toBe('phase_mismatch');
    expect(early.message).toMatch(
      /^job_complete is only available in strategic phases; this is tactical phase 2\./,
    );

    // The last tactical todo archives phase 2 and loads the transition todos.
    const done = finishAllBut(tactical, 6, T0 + 40);
    const strategic = unwrap(completeTodo(done, { id: 6, now: T0 + 50 }));
    expect(strategic).toMatchObject({
      phase: 'strategic',
      phaseNumber: 3,
      phaseKind: 'transition',
      title: null,
    });
    expect(strategic.todos.map(({ id, content }) => ({ id, content }))).toEqual(
      PREDEFINED_TODOS.transition,
    );
    expect(strategic.signals[0]).toEqual({
      type: 'phase_archived',
      path: 'archive/phase_2.yaml',
      archive: {
        phaseNumber: 2,
        title: 'Phase 1: Extract',
        description: null,
        todos: tactical.todos.map((todo) => ({ ...todo, status: 'completed' })),
      },
    });
    expect(strategic.signals.slice(1)).toEqual([
      { type: 'history_reset' },
      { type: 'phase_started', phase: 'strategic', phaseNumber: 3, kind: 'transition' },
    ]);

    // The strategic agent decides the plan is fully executed.
    const complete = unwrap(
      completeJob(strategic, { now: T0 + 60, summary: 'Extracted everything.' }),
    );
    expect(complete.machine.state).toBe('complete');
    expect(complete.machine.status).toBe('done');
    expect(complete.signals).toEqual([{ type: 'job_completed', summary: 'Extracted everything.' }]);
    expect(complete.machine.trace.map((entry) => entry.outcome)).toEqual([
      'handoff_rejected',
      'handoff_accepted',
      'phase_completed',
      'job_completed',
    ]);
    expect(refusal(completeTodo(complete, { id: 1, now: T0 + 70 })).code).toBe('job_done');
    expect(refusal(completeJob(complete, { now: T0 + 70 })).code).toBe('job_done');
  });

  it('rejects every kind of bad document and always keeps the todo in progress', () => {
    const job = finishAllBut(startPhaseJob({ jobId: 'job-1', now: T0 }), 4, T0);
    const cases: [Parameters<typeof completeTodo>[1]['todos'], string][] = [
      [null, 'todos.yaml not found. Create it with todo_write.'],
      [
        { kind: 'oversized', bytes: 10 * 1024 * 1024 },
        'todos.yaml is 10485760 bytes; the limit is 65536 bytes.',
      ],
      [
        todosYaml(6).replace('id: 2', 'id: "2"'),
        'todos[1].id must be an integer, got "2" (a string).',
      ],
      ['todos: [', 'Invalid YAML:'],
      ['phase: x', "todos.yaml must have a 'todos' list."],
    ];
    for (const [todos, reason] of cases) {
      const next = unwrap(completeTodo(job, { id: 4, now: T0 + 1, todos }));
      const [signal] = next.signals;
      expect(signal?.type === 'handoff_rejected' && signal.message).toContain(
        `Phase transition rejected: ${reason}`,
      );
      expect(next.todos[3]?.status).toBe('in_progress');
      expect(next.phase).toBe('strategic');
    }
  });

  it('uses the configured range and limit', () => {
    const job = finishAllBut(
      startPhaseJob({ jobId: 'job-1', now: T0, todoRange: { min: 2, max: 3 }, todosMaxBytes: 200 }),
      4,
      T0,
    );
    const four = unwrap(completeTodo(job, { id: 4, now: T0, todos: todosYaml(4) }));
    expect(four.signals[0]).toMatchObject({ reason: 'Expected 2-3 todos, got 4.' });
    const big = unwrap(completeTodo(job, { id: 4, now: T0, todos: `# ${'x'.repeat(300)}\n` }));
    expect(big.signals[0]).toMatchObject({ code: 'todos_too_large' });
    expect(unwrap(completeTodo(job, { id: 4, now: T0, todos: todosYaml(2) })).phase).toBe(
      'tactical',
    );
  });

  it('needs the todos document for the hand-off, and only then', () => {
    const job = finishAllBut(startPhaseJob({ jobId: 'job-1', now: T0 }), 4, T0);
    const error = refusal(completeTodo(job, { id: 4, now: T0 }));
    expect(error.code).toBe('input_invalid');
    expect(error.field).toBe('input.todos');
    expect(job.todos[3]?.status).toBe('pending');
  });

  it('refuses unknown and completed todos, bad input and time running backwards', () => {
    const job = unwrap(
      completeTodo(startPhaseJob({ jobId: 'job-1', now: T0 }), { id: 1, now: T0 + 5 }),
    );
    expect(refusal(completeTodo(job, { id: 9, now: T0 + 5 }))).toMatchObject({
      code: 'todo_unknown',
      message: 'Todo 9 is not in strategic phase 1; its todos are 1, 2, 3, 4.',
    });
    expect(refusal(completeTodo(job, { id: 1, now: T0 + 5 }))).toMatchObject({
      code: 'todo_completed',
      message: 'Todo 1 is already completed.',
    });
    expect(refusal(completeTodo(job, { id: '2' as never, now: T0 + 5 })).field).toBe('input.id');
    expect(refusal(completeTodo(job, { id: 2, now: T0 })).field).toBe('input.now');
    expect(refusal(completeTodo(job, { id: 2, now: Number.NaN })).field).toBe('input.now');
    expect(refusal(completeTodo(job, { id: 2, now: T0 + 5, extra: 1 } as never)).field).toBe(
      'input.extra',
    );
    expect(refusal(completeTodo(job, { id: 2, now: T0 + 5, todos: 42 as never })).field).toBe(
      'input.todos',
    );
    expect(refusal(completeTodo(job, null as never)).field).toBe('input');
    expect(() => completeTodo({} as never, { id: 1, now: T0 })).toThrow(/must be a phase job/);
  });

  it('refuses todos while the plan waits for review', () => {
    const job = finishAllBut(startPhaseJob({ jobId: 'job-1', now: T0, interactive: true }), 4, T0);
    const waiting = unwrap(completeTodo(job, { id: 4, now: T0, todos: todosYaml(5) }));
    expect(refusal(completeTodo(waiting, { id: 1, now: T0 })).code).toBe('review_pending');
    expect(refusal(completeJob(waiting, { now: T0 })).code).toBe('review_pending');
  });
});
