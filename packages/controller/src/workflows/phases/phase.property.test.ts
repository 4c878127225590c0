import type { Result } from '@plankit/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { approvePlan } from '../review/approve-plan.ts';
import { requestChanges } from '../review/request-changes.ts';
import { skipReview } from '../review/skip-review.ts';
import { todosYaml } from '../testing/unwrap.ts';
import { WorkflowError } from '../workflow-error.ts';
import { completeJob } from './complete-job.ts';
import { completeTodo } from './complete-todo.ts';
import type { PhaseJob } from './phase-job.ts';
import { phaseJobFromJSON } from './phase-job-from-json.ts';
import { startPhaseJob } from './start-phase-job.ts';
import type { TodosSource } from './validate-todos.ts';

// Documents the agent may have written: valid ones of 5-7 todos, and every kind of bad one.
const VALID = [5, 6, 7].map((n) => todosYaml(n, `Phase of ${n}`));
const SOURCES: TodosSource[] = [
  ...VALID,
  todosYaml(4),
  null,
  { kind: 'oversized', bytes: 10 * 1024 * 1024 },
  todosYaml(5).replace('id: 3', 'id: "3"'),
  'todos: [',
];

type Command =
  | {
      readonly kind: 'complete';
      readonly pick: number;
      readonly source: number;
      readonly dt: number;
    }
  | { readonly kind: 'finish'; readonly dt: number }
  | { readonly kind: 'approve' | 'skip'; readonly dt: number }
  | { readonly kind: 'request'; readonly feedback: string; readonly dt: number }
  | { readonly kind: 'store' };

const dt = fc.integer({ min: 0, max: 5000 });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('complete' as const),
      pick: fc.oneof({ arbitrary: fc.constant(0), weight: 8 }, { arbitrary: fc.nat(8), weight: 2 }),
      source: fc.oneof(
        { arbitrary: fc.nat(2), weight: 5 },
        { arbitrary: fc.nat(SOURCES.length - 1), weight: 2 },
      ),
      dt,
    }),
    weight: 40,
  },
  { arbitrary: fc.record({ kind: fc.constant('finish' as const), dt }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constantFrom('approve' as const, 'skip' as const), dt }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('request' as const),
      feedback: fc.oneof(fc.constant('Split phase 2.'), fc.string({ maxLength: 30 })),
      dt,
    }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'store' as const }), weight: 1 },
);

const seen = new Map<string, number>();
const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

function apply(job: PhaseJob, cmd: Command, now: number): Result<PhaseJob, WorkflowError> {
  switch (cmd.kind) {
    case 'complete': {
      const open = job.todos.filter((todo) => todo.status !== 'completed');
      // Mostly the first open todo; sometimes a completed or unknown id.
      const todo = cmd.pick < open.length ? open[cmd.pick] : job.todos[cmd.pick];
      return completeTodo(job, { id: todo?.id ?? 99, now, todos: SOURCES[cmd.source] ?? null });
    }
    case 'finish':
      return completeJob(job, { now });
    case 'approve':
      return approvePlan(job, { now });
    case 'skip':
      return skipReview(job, { now });
    case 'request':
      return requestChanges(job, { now, feedback: cmd.feedback });
    case 'store':
      return phaseJobFromJSON(JSON.stringify(job));
    default: {
      const unknown: never = cmd;
      throw new Error(`unknown command ${String(unknown)}`);
    }
  }
}

function checkStep(prev: PhaseJob, next: PhaseJob): void {
  const types = next.signals.map((signal) => signal.type);
  for (const type of types) count(type);
  // Phase numbers move by one, exactly when a phase starts, always after a history reset.
  const started = types.includes('phase_started');
  expect(next.phaseNumber - prev.phaseNumber).toBe(started ? 1 : 0);
  if (started) expect(types.indexOf('history_reset')).toBeLessThan(types.indexOf('phase_started'));
  // Strategic and tactical alternate, but a revision follows a strategic phase.
  if (started && next.phase === prev.phase) {
    expect(next.phaseKind).toBe('revision');
  }
  // A tactical phase only ever runs a valid document's todos, and never before the review.
  if (next.phase === 'tactical') {
    expect(next.todos.length).toBeGreaterThanOrEqual(5);
    expect(next.todos.length).toBeLessThanOrEqual(20);
    if (next.settings.interactive) expect(['approved', 'skipped']).toContain(next.review.status);
  }
  if (started && next.phase === 'tactical') {
    expect(VALID).toContain(todosYaml(next.todos.length, next.title ?? ''));
  }
  // Only a strategic phase ends the job.
  if (next.machine.state === 'complete' && prev.machine.state !== 'complete') {
    expect(prev.phase).toBe('strategic');
  }
  // A rejected hand-off keeps the phase and leaves exactly that todo in progress.
  if (types.includes('handoff_rejected')) {
    expect(next.phase).toBe('strategic');
    expect(next.phaseNumber).toBe(prev.phaseNumber);
    expect(next.todos.filter((todo) => todo.status !== 'completed')).toHaveLength(1);
    expect(next.todos.find((todo) => todo.status !== 'completed')?.status).toBe('in_progress');
  }
  // The trace only grows, one entry per controller step.
  expect(next.machine.trace.slice(0, prev.machine.trace.length)).toEqual(prev.machine.trace);
  expect(next.machine.trace.length - prev.machine.trace.length).toBeLessThanOrEqual(1);
  // Every job survives storage unchanged.
  expect(phaseJobFromJSON(JSON.stringify(next))).toEqual({ ok: true, value: next });
  expect(Object.isFrozen(next.todos)).toBe(true);
}

describe('phase jobs, under any sequence of steps', () => {
  afterAll(() => {
    // The properties reached the interesting paths.
    for (const type of [
      'handoff_rejected',
      'review_pending',
      'review_feedback',
      'review_limit_reached',
      'phase_archived',
      'job_completed',
      'refused',
    ]) {
      expect(seen.get(type) ?? 0, type).toBeGreaterThan(0);
    }
  });

  it('alternate phases through valid hand-offs, review first when interactive, ending only from strategic', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(command, { minLength: 40, maxLength: 120 }),
        (interactive, commands) => {
          let job = startPhaseJob({ jobId: 'prop', now: 0, interactive, reviewLimit: 1 });
          let now = 0;
          for (const cmd of commands) {
            if ('dt' in cmd) now += cmd.dt;
            const next = apply(job, cmd, now);
            if (!next.ok) {
              count('refused');
              expect(WorkflowError.isInstance(next.error)).toBe(true);
              continue;
            }
            if (cmd.kind === 'store') expect(next.value).toEqual(job);
            else checkStep(job, next.value);
            job = next.value;
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 30_000);
});
