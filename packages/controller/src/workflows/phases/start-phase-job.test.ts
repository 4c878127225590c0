import { describe, expect, it } from 'vitest';
import { WorkflowError } from '../workflow-error.ts';
import { phaseController } from './phase-controller.ts';
import { PREDEFINED_TODOS, predefinedTodos } from './predefined-todos.ts';
import {
  DEFAULT_COMPACTION_THRESHOLD,
  DEFAULT_REVIEW_LIMIT,
  startPhaseJob,
} from './start-phase-job.ts';
import { DEFAULT_TODOS_MAX_BYTES } from './validate-todos.ts';

describe('startPhaseJob', () => {
  it('starts in strategic phase 1 with the initial todos and the defaults', () => {
    const job = startPhaseJob({ jobId: 'job-42', now: 1000 });
    expect(job).toMatchObject({
      format: 'plankit.phase-job',
      version: 1,
      jobId: 'job-42',
      phase: 'strategic',
      phaseNumber: 1,
      phaseKind: 'initial',
      title: null,
      handoff: null,
      review: { status: 'off', cycles: 0, feedback: [] },
      startedAt: 1000,
      updatedAt: 1000,
      settings: {
        todoRange: { min: 5, max: 20 },
        interactive: false,
        reviewLimit: DEFAULT_REVIEW_LIMIT,
        compactionThreshold: DEFAULT_COMPACTION_THRESHOLD,
        todosMaxBytes: DEFAULT_TODOS_MAX_BYTES,
        todos: PREDEFINED_TODOS,
      },
    });
    expect(DEFAULT_COMPACTION_THRESHOLD).toBe(80_000);
    expect(job.todos).toEqual(
      PREDEFINED_TODOS.initial.map((todo) => ({ ...todo, status: 'pending' })),
    );
    expect(job.machine).toMatchObject({
      machine: phaseController.id,
      state: 'strategic',
      status: 'running',
    });
    expect(Object.isFrozen(job.settings.todoRange)).toBe(true);
  });

  it('takes interactive review, a range and the host own predefined todos', () => {
    const custom = [{ id: 10, content: 'Read the brief.' }];
    const job = startPhaseJob({
      jobId: 'job-42',
      now: 0,
      interactive: true,
      todoRange: { min: 3, max: 8 },
      todos: { initial: custom },
    });
    expect(job.review.status).toBe('required');
    expect(job.todos).toEqual([{ id: 10, content: 'Read the brief.', status: 'pending' }]);
    expect(job.settings.todos.transition).toEqual(predefinedTodos({ min: 3, max: 8 }).transition);
  });

  it('refuses bad options, naming the option', () => {
    const bad: [unknown, string][] = [
      [{ jobId: '', now: 0 }, 'options.jobId'],
      [{ jobId: '../x', now: 0 }, 'options.jobId'],
      [{ jobId: 'j', now: Number.POSITIVE_INFINITY }, 'options.now'],
      [{ jobId: 'j', now: 0, interactive: 'yes' }, 'options.interactive'],
      [{ jobId: 'j', now: 0, reviewLimit: 0 }, 'options.reviewLimit'],
      [{ jobId: 'j', now: 0, compactionThreshold: 1.5 }, 'options.compactionThreshold'],
      [{ jobId: 'j', now: 0, todosMaxBytes: 20 * 1024 * 1024 }, 'options.todosMaxBytes'],
      [{ jobId: 'j', now: 0, todoRange: { min: 6, max: 5 } }, 'options.todoRange'],
      [{ jobId: 'j', now: 0, todos: { extra: [] } }, 'options.todos.extra'],
      [{ jobId: 'j', now: 0, todos: { initial: [] } }, 'options.todos.initial'],
      [
        { jobId: 'j', now: 0, todos: { initial: [{ id: '1', content: 'x' }] } },
        'options.todos.initial[0].id',
      ],
      [
        { jobId: 'j', now: 0, todos: { initial: [{ id: 1, content: ' ' }] } },
        'options.todos.initial[0].content',
      ],
      [
        { jobId: 'j', now: 0, todos: { initial: [{ id: 1, content: 'a', done: true }] } },
        'options.todos.initial[0].done',
      ],
      [{ jobId: 'j', now: 0, caps: {} }, 'options.caps'],
      [null, 'options'],
    ];
    for (const [options, field] of bad) {
      let thrown: unknown;
      try {
        startPhaseJob(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(WorkflowError.isInstance(thrown), field).toBe(true);
      expect((thrown as WorkflowError).code).toBe('argument_invalid');
      expect((thrown as WorkflowError).field).toBe(field);
    }
  });
});
