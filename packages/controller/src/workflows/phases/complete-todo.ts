import type { Result } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import { fail, inputError, inputProblem, isInteger } from '../internal/checks.ts';
import type { WorkflowError } from '../workflow-error.ts';
import type { PhaseJob } from './phase-job.ts';
import type { PhaseSignal, TodosConsumedSignal } from './phase-signal.ts';
import { ensureJob, enterPhase, nextJob, runningProblem, step } from './phase-step.ts';
import type { Todo, TodoStatus } from './todo.ts';
import { type TodosRule, type TodosSource, validateTodos } from './validate-todos.ts';

/** What {@link completeTodo} takes. @public */
export interface CompleteTodoInput {
  /** The todo's id. */
  readonly id: number;
  /** When, in epoch milliseconds; not earlier than the job's `updatedAt`. */
  readonly now: number;
  /**
   * What the host found at `todos.yaml`. Required when the call completes the last open todo
   * of a strategic phase (the hand-off); ignored otherwise.
   */
  readonly todos?: TodosSource | undefined;
}

const WHERE = 'completeTodo';
const KEYS: ReadonlySet<string> = new Set(['id', 'now', 'todos']);

function isSource(value: unknown): value is TodosSource {
  return (
    value === null ||
    typeof value === 'string' ||
    (isRecord(value) &&
      value['kind'] === 'oversized' &&
      isInteger(value['bytes'], 0, Number.MAX_SAFE_INTEGER))
  );
}

function withStatus(todos: readonly Todo[], index: number, status: TodoStatus): readonly Todo[] {
  return todos.map((todo, i) => (i === index ? { ...todo, status } : todo));
}

/**
 * Completes a todo of the current phase. Completing the last open todo ends the phase:
 *
 * - strategic: the hand-off. `input.todos` is checked with `validateTodos`; an invalid
 *   document rejects it (the todo goes back to `in_progress`, the job signals
 *   `handoff_rejected` with the agent's message `Phase transition rejected: <reason>`); a valid
 *   one starts the next tactical phase with its todos, or, while a review is required, waits
 *   in `pending_review`.
 * - tactical: the phase is archived (`phase_archived`, unless the job's `archiveOnTransition`
 *   is off) and the next strategic phase starts with the predefined transition todos.
 *
 * A valid hand-off (accepted or held for review) consumes `todos.yaml`: the job signals
 * `todos_consumed` first, to archive or remove it as `todosOnHandoff` says. A later strategic
 * phase that writes no new todos finds no file, and its hand-off is refused with a message
 * saying so.
 *
 * Every phase change signals `history_reset` then `phase_started`.
 *
 * @returns the next job, or a {@link WorkflowError}: `input_invalid`, `todo_unknown`,
 *   `todo_completed`, `review_pending`, `job_done`
 * @throws WorkflowError `argument_invalid` for a value that is not a phase job
 * @example
 * ```ts
 * const next = completeTodo(job, { id: 4, now, todos: await readFile('todos.yaml', 'utf8') });
 * if (next.ok && next.value.signals.some((s) => s.type === 'history_reset')) messages = [];
 * ```
 * @public
 */
export function completeTodo(
  job: PhaseJob,
  input: CompleteTodoInput,
): Result<PhaseJob, WorkflowError> {
  ensureJob(WHERE, job);
  const problem = inputProblem(WHERE, input, KEYS, job.updatedAt);
  if (problem !== null) return { ok: false, error: problem };
  const { id, now, todos: source } = input;
  if (!isInteger(id, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)) {
    return { ok: false, error: inputError(WHERE, 'input.id', 'must be an integer') };
  }
  if (source !== undefined && !isSource(source)) {
    return {
      ok: false,
      error: inputError(
        WHERE,
        'input.todos',
        'must be the text of todos.yaml, null, or { kind: "oversized", bytes }',
      ),
    };
  }
  const refused = runningProblem(WHERE, job);
  if (refused !== null) return refused;
  const index = job.todos.findIndex((todo) => todo.id === id);
  const todo = job.todos[index];
  if (todo === undefined) {
    const ids = job.todos.map((item) => item.id).join(', ');
    return fail(
      'todo_unknown',
      `Todo ${id} is not in ${job.phase} phase ${job.phaseNumber}; its todos are ${ids}.`,
      'id',
    );
  }
  if (todo.status === 'completed') {
    return fail('todo_completed', `Todo ${id} is already completed.`, 'id');
  }
  const completed = withStatus(job.todos, index, 'completed');
  if (completed.some((item) => item.status !== 'completed')) {
    return { ok: true, value: nextJob(job, { todos: completed, updatedAt: now }) };
  }
  return job.phase === 'strategic'
    ? handOff(job, index, now, source)
    : finishTactical(job, completed, now);
}

function handOff(
  job: PhaseJob,
  index: number,
  now: number,
  source: TodosSource | undefined,
): Result<PhaseJob, WorkflowError> {
  if (source === undefined) {
    return {
      ok: false,
      error: inputError(
        WHERE,
        'input.todos',
        'is required: the last todo of a strategic phase hands off to tactical, which needs todos.yaml (its text, or null when it is missing)',
      ),
    };
  }
  const { todoRange, todosMaxBytes } = job.settings;
  const checked = validateTodos(source, { range: todoRange, maxBytes: todosMaxBytes });
  if (!checked.ok) {
    const reason =
      source === null && job.phaseKind !== 'initial'
        ? `todos.yaml not found: the last hand-off consumed the previous todos, so this phase must write its own with todo_write${job.phaseKind === 'transition' ? ' (or call job_complete if the plan is fully executed)' : ''}.`
        : checked.error.message;
    const machine = step(WHERE, job, 'handoff_rejected', now, reason);
    if (!machine.ok) return machine;
    const signal: PhaseSignal = {
      type: 'handoff_rejected',
      code: checked.error.code as TodosRule,
      reason,
      message: `Phase transition rejected: ${reason}`,
    };
    return {
      ok: true,
      value: nextJob(job, {
        machine: machine.value,
        todos: withStatus(job.todos, index, 'in_progress'),
        updatedAt: now,
        signals: [signal],
      }),
    };
  }
  const document = checked.value;
  const completed = withStatus(job.todos, index, 'completed');
  if (job.review.status === 'required') {
    const machine = step(
      WHERE,
      job,
      'handoff_held',
      now,
      `${document.todos.length} todos wait for review`,
    );
    if (!machine.ok) return machine;
    return {
      ok: true,
      value: nextJob(job, {
        machine: machine.value,
        todos: completed,
        handoff: document,
        updatedAt: now,
        signals: [consumed(job), { type: 'review_pending', cycle: job.review.cycles }],
      }),
    };
  }
  const machine = step(WHERE, job, 'handoff_accepted', now, `${document.todos.length} todos`);
  if (!machine.ok) return machine;
  const { fields, started } = enterPhase(job, 'tactical', document.todos, document);
  return {
    ok: true,
    value: nextJob(job, {
      ...fields,
      machine: machine.value,
      updatedAt: now,
      signals: [consumed(job), { type: 'history_reset' }, started],
    }),
  };
}

/** The hand-off's `todos_consumed` signal, as the job's settings say. */
function consumed(job: PhaseJob): TodosConsumedSignal {
  const archive = job.settings.todosOnHandoff === 'archive';
  return {
    type: 'todos_consumed',
    path: 'todos.yaml',
    action: job.settings.todosOnHandoff,
    archivePath: archive ? `archive/todos_phase_${job.phaseNumber}.yaml` : null,
  };
}

function finishTactical(
  job: PhaseJob,
  completed: readonly Todo[],
  now: number,
): Result<PhaseJob, WorkflowError> {
  const machine = step(WHERE, job, 'phase_completed', now, null);
  if (!machine.ok) return machine;
  const { fields, started } = enterPhase(job, 'transition', job.settings.todos.transition);
  return {
    ok: true,
    value: nextJob(job, {
      ...fields,
      machine: machine.value,
      updatedAt: now,
      signals: [...archived(job, completed), { type: 'history_reset' }, started],
    }),
  };
}

/** The `phase_archived` signal of a finished tactical phase, unless archiving is off. */
function archived(job: PhaseJob, completed: readonly Todo[]): readonly PhaseSignal[] {
  if (!job.settings.archiveOnTransition) return [];
  return [
    {
      type: 'phase_archived',
      path: `archive/phase_${job.phaseNumber}.yaml`,
      archive: {
        phaseNumber: job.phaseNumber,
        title: job.title,
        description: job.description,
        todos: completed,
      },
    },
  ];
}
