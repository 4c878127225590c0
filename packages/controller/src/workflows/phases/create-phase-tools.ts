import {
  defineTool,
  type ReducerEvent,
  type Result,
  Session,
  selectLatest,
  type Tool,
  type ToolValidationCode,
  ToolValidationError,
} from '@plankit/core';
import { isRecord, plural } from '@plankit/core/internal-unstable';
import * as z from 'zod';
import { canonicalJson } from '../../internal/canonical-json.ts';
import { argumentError, checkOptions } from '../internal/checks.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { completeJob } from './complete-job.ts';
import { completeTodo } from './complete-todo.ts';
import type { PhaseArchive } from './phase-archive.ts';
import { PhaseJob } from './phase-job.ts';
import { type TodosDocument, type TodosSource, todosFromData } from './validate-todos.ts';

/** Why the workspace refused or failed a call. @public */
export interface WorkspaceProblem {
  /** A stable code, such as `path_outside_root` or `io`. */
  readonly code: string;
  /** What went wrong. */
  readonly message: string;
}

/**
 * What the phase tools need from the workspace: `todos.yaml` read and written, and archives
 * written. `@plankit/adapters/workspace` implements it over a folder; any other store can.
 *
 * @public
 */
export interface PhaseFiles {
  /** Reads `todos.yaml`: its text, null when missing, or `{ kind: 'oversized', bytes }`. */
  readTodos(options: { readonly maxBytes: number }): Promise<Result<TodosSource, WorkspaceProblem>>;
  /** Writes `todos.yaml`. */
  writeTodos(document: TodosDocument): Promise<Result<unknown, WorkspaceProblem>>;
  /** Writes `archive/phase_N.yaml`. */
  writeArchive(archive: PhaseArchive): Promise<Result<unknown, WorkspaceProblem>>;
  /**
   * Moves `todos.yaml` to `archivePath` (`action: 'archive'`) or deletes it (`'remove'`) once a
   * hand-off consumed it; nothing when it is missing. Optional for older ports; without it
   * `todos.yaml` stays, and a later phase could hand the same list off again.
   */
  consumeTodos?(consumed: {
    readonly action: 'archive' | 'remove';
    readonly archivePath: string | null;
  }): Promise<Result<unknown, WorkspaceProblem>>;
}

/** Options of {@link createPhaseTools}. @public */
export interface PhaseToolsOptions {
  /** Where `todos.yaml` and the archives live. */
  readonly files: PhaseFiles;
}

/** Parameters of `todo_complete`. @public */
export interface TodoCompleteParams {
  /** The todo's id. */
  readonly id: number;
}

/** Parameters of `todo_write`. @public */
export interface TodoWriteParams {
  /** A title for the phase, such as `Phase 1: Extract requirements`. */
  readonly phase?: string | undefined;
  /** What the phase achieves. */
  readonly description?: string | undefined;
  /** The todos of the next tactical phase. */
  readonly todos: readonly {
    /** The todo's number, unique in the list. */
    readonly id: number;
    /** What to do. */
    readonly content: string;
  }[];
}

/** Parameters of `job_complete`. @public */
export interface JobCompleteParams {
  /** What the job achieved, in a few sentences. */
  readonly summary?: string | undefined;
}

/** The three phase tools: `todo_complete`, `todo_write`, `job_complete`. @public */
export type PhaseTools = readonly [
  Tool<TodoCompleteParams, PhaseJob>,
  Tool<TodoWriteParams, TodosDocument>,
  Tool<JobCompleteParams, PhaseJob>,
];

const OPTION_KEYS: ReadonlySet<string> = new Set(['files']);

const TOOL_CODES: Partial<Record<WorkflowError['code'], ToolValidationCode>> = {
  todo_unknown: 'step_unknown',
  todo_completed: 'status_invalid',
  phase_mismatch: 'plan_not_active',
  review_pending: 'plan_not_active',
  job_done: 'plan_not_active',
};

/** A refusal the model reads; errors that are not the model's to fix stay execution failures. */
function refusal(error: WorkflowError): Error {
  const code = TOOL_CODES[error.code] ?? (error.code.startsWith('todo') ? 'schema' : undefined);
  if (code === undefined) return error;
  return new ToolValidationError(error.message, {
    code,
    field: error.field,
    cause: error,
    ...(code === 'schema' ? { issues: [{ path: error.field ?? '', message: error.message }] } : {}),
  });
}

function currentJob(session: Session, tool: string): PhaseJob {
  const job = selectLatest(session, PhaseJob);
  if (job === undefined) {
    throw new Error(`${tool}: the session holds no phase job; dispatch startPhaseJob(...) first`);
  }
  switch (job.machine.status) {
    case 'running':
      return job;
    case 'waiting':
      throw new ToolValidationError(
        'The plan is waiting for review: nothing can change until a person approves it or requests changes.',
        { code: 'plan_not_active' },
      );
    case 'done':
      throw new ToolValidationError('The job is complete.', { code: 'plan_not_active' });
    case 'frozen':
      throw new Error(`${tool}: job ${job.jobId} is frozen`);
    default: {
      const unknown: never = job.machine.status;
      throw new Error(`unreachable: status ${String(unknown)}`);
    }
  }
}

function failed(action: string, problem: WorkspaceProblem): Error {
  return new Error(`${action} failed: ${problem.message}`);
}

/** The tool message after a completed todo. */
function completionMessage(before: PhaseJob, after: PhaseJob, id: number): string {
  const done = `Todo ${id} completed.`;
  for (const signal of after.signals) {
    switch (signal.type) {
      case 'handoff_rejected':
        return signal.message;
      case 'review_pending':
        return `${done} The plan is ready for review: the job pauses until a person approves it or requests changes.`;
      case 'phase_archived':
        return `${done} Tactical phase ${before.phaseNumber} is done and archived to ${signal.path}; strategic phase ${after.phaseNumber} starts.`;
      case 'phase_started':
        if (signal.phase === 'strategic')
          return `${done} Tactical phase ${before.phaseNumber} is done; strategic phase ${after.phaseNumber} starts.`;
        return `${done} todos.yaml passed validation: tactical phase ${after.phaseNumber} starts with ${plural(after.todos.length, 'todo')}.`;
      case 'todos_consumed':
      case 'history_reset':
      case 'review_feedback':
      case 'review_limit_reached':
      case 'job_completed':
        break;
      default: {
        const unknown: never = signal;
        throw new Error(`unreachable: signal ${String(unknown)}`);
      }
    }
  }
  const left = after.todos.filter((todo) => todo.status !== 'completed').length;
  return `${done} ${plural(left, 'todo')} left in ${after.phase} phase ${after.phaseNumber}.`;
}

// Each job a phase tool returns, by its canonical JSON (the session may commit a parsed copy,
// not the object returned), with the job it was computed from: the reducer commits it only
// while that job is still the session's latest (compare and set), so a call whose base went
// stale while it awaited file I/O, or while another call committed first, is refused rather
// than overwriting the other call's update. Jobs replayed from a store, or dispatched by the
// host, are not pending and replace the latest as before.
interface PhaseSlice {
  readonly pending: Map<string, PhaseJob>;
  /** The end of the queue of phase tool calls on the session. */
  queue: Promise<void>;
  readonly reducer: (
    slice: readonly PhaseJob[],
    event: ReducerEvent<PhaseJob>,
  ) => readonly PhaseJob[];
}
const phaseSlices = new WeakMap<Session, PhaseSlice>();
// Results never committed (a session disposed mid-call) are forgotten past this many.
const MAX_PENDING = 1000;

/** The session's PhaseJob reducer and pending results, made once per session. */
function phaseSlice(session: Session): PhaseSlice {
  const known = phaseSlices.get(session);
  if (known !== undefined) return known;
  const pending = new Map<string, PhaseJob>();
  const reducer = (
    _slice: readonly PhaseJob[],
    event: ReducerEvent<PhaseJob>,
  ): readonly PhaseJob[] => {
    if (pending.size > 0) {
      const key = canonicalJson(event.value);
      const base = key === undefined ? undefined : pending.get(key);
      if (key !== undefined && base !== undefined) {
        pending.delete(key);
        // The committed state, not the slice staged by a reducer registered before this one.
        if (selectLatest(session, PhaseJob) !== base) throw stale();
      }
    }
    return [event.value];
  };
  const made: PhaseSlice = { pending, reducer, queue: Promise.resolve() };
  phaseSlices.set(session, made);
  return made;
}

function stale(): ToolValidationError {
  return new ToolValidationError(
    'The job changed while this call ran (another phase tool call finished first), so nothing changed. Call the tool again.',
    { code: 'plan_not_active' },
  );
}

/**
 * Runs `handler` after the phase tool calls queued before it on the session, so a hand-off
 * never reads todos.yaml while todo_write writes it. The next call starts a macrotask after
 * this one returns, once `invokeTool` has committed its result.
 */
function queued<T>(session: Session, handler: () => Promise<T>): Promise<T> {
  const slice = phaseSlice(session);
  const run = slice.queue.then(handler);
  slice.queue = run.then(
    () => new Promise<void>((resolve) => setImmediate(resolve)),
    () => new Promise<void>((resolve) => setImmediate(resolve)),
  );
  return run;
}

/** The tool result `next`, remembered as computed from `base` until the session reduces it. */
function from(session: Session, base: PhaseJob, next: PhaseJob): PhaseJob {
  const { pending } = phaseSlice(session);
  const key = canonicalJson(next);
  if (key !== undefined) {
    if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value as string);
    pending.set(key, base);
  }
  return next;
}

/**
 * The tools an agent drives a phase job with, over the `PhaseJob` slice of
 * `session` (registered here, idempotently, with a check that refuses stale results; dispatch the job from
 * `startPhaseJob` first):
 *
 * - `todo_complete { id }`: `completeTodo`, reading `todos.yaml` through `files` for the
 *   hand-off, then archiving or removing it (`todos_consumed`), and writing the archive of a
 *   finished tactical phase (unless `archiveOnTransition` is off). A rejected hand-off answers
 *   with its message: `Phase transition rejected: <reason>`.
 * - `todo_write { phase?, description?, todos }`: writes `todos.yaml`, after checking it with
 *   the hand-off's own rules. Strategic phases only.
 * - `job_complete { summary? }`: `completeJob`. Strategic phases only.
 *
 * Refused calls (a tactical `todo_write` or `job_complete`, an unknown or completed todo, a
 * job waiting for review or done) come back as `Tool validation failed: ...` and change
 * nothing. Act on the signals of the job `todo_complete` and `job_complete` return. Time comes
 * from the call, and never runs backwards within a job.
 *
 * Concurrent calls on one session end in a state equal to some serial order of the calls that
 * reported success: each call's job is committed only if the job it started from is still the
 * latest, and otherwise refused (`Tool validation failed: The job changed while this call
 * ran...`, nothing changed), so two racing `todo_complete` calls never lose a completion and a
 * hand-off never revives a job `job_complete` ended. Call a refused tool again. The PhaseJob
 * slice is registered here with that check; a `replaceLatest` registered by the host as well
 * does not weaken it.
 *
 * @throws WorkflowError `argument_invalid` for a value that is not a `Session` or bad options
 * @example
 * ```ts
 * const workspace = (await openWorkspace('jobs/42', { create: true })).value; // @plankit/adapters/workspace
 * const phaseTools = createPhaseTools(session, { files: workspace });
 * session.dispatch(PhaseJob, startPhaseJob({ jobId: 'job-42', now: Date.now() }));
 * ```
 * @public
 */
export function createPhaseTools(session: Session, options: PhaseToolsOptions): PhaseTools {
  if (!(session instanceof Session))
    throw argumentError('createPhaseTools', 'session', 'must be a Session');
  checkOptions('createPhaseTools', options, OPTION_KEYS);
  const { files } = options;
  if (
    !isRecord(files) ||
    typeof files.readTodos !== 'function' ||
    typeof files.writeTodos !== 'function' ||
    typeof files.writeArchive !== 'function' ||
    (files.consumeTodos !== undefined && typeof files.consumeTodos !== 'function')
  ) {
    throw argumentError(
      'createPhaseTools',
      'options.files',
      'must have readTodos, writeTodos and writeArchive (and consumeTodos, when given, a function)',
    );
  }
  session.register(PhaseJob, phaseSlice(session).reducer);

  const todoComplete = defineTool({
    name: 'todo_complete',
    description:
      'Mark a todo of the current phase complete. Completing the last one ends the phase.',
    parameters: z.strictObject({ id: z.number().int().describe('The id of the todo.') }),
    resultType: PhaseJob,
    handler: ({ id }, context) =>
      queued(context.session, async () => {
        const job = currentJob(context.session, 'todo_complete');
        const now = Math.max(context.now, job.updatedAt);
        const open = job.todos.filter((todo) => todo.status !== 'completed');
        let todos: TodosSource | undefined;
        if (job.phase === 'strategic' && open.length === 1 && open[0]?.id === id) {
          const read = await files.readTodos({ maxBytes: job.settings.todosMaxBytes });
          if (!read.ok) throw failed('Reading todos.yaml', read.error);
          todos = read.value;
        }
        const next = completeTodo(job, { id, now, todos });
        if (!next.ok) throw refusal(next.error);
        for (const signal of next.value.signals) {
          if (signal.type === 'todos_consumed' && files.consumeTodos !== undefined) {
            const moved = await files.consumeTodos(signal);
            if (!moved.ok) throw failed(`Consuming todos.yaml`, moved.error);
          }
          if (signal.type !== 'phase_archived') continue;
          const written = await files.writeArchive(signal.archive);
          if (!written.ok) throw failed(`Writing ${signal.path}`, written.error);
        }
        return {
          message: completionMessage(job, next.value, id),
          value: from(context.session, job, next.value),
        };
      }),
  });

  const todoWrite = defineTool({
    name: 'todo_write',
    description: 'Write the todos of the next tactical phase to todos.yaml. Strategic phases only.',
    parameters: z.strictObject({
      phase: z.string().optional().describe('A title for the phase.'),
      description: z.string().optional().describe('What the phase achieves.'),
      todos: z
        .array(z.strictObject({ id: z.number().int(), content: z.string() }))
        .describe('The todos, each with an integer id and what to do.'),
    }),
    handler: (params, context) =>
      queued(context.session, async () => {
        const job = currentJob(context.session, 'todo_write');
        if (job.phase === 'tactical') {
          throw new ToolValidationError(
            `todo_write is only available in strategic phases; this is tactical phase ${job.phaseNumber}. Work through your todos with todo_complete: the strategic phase that follows writes the next todos.`,
            { code: 'plan_not_active' },
          );
        }
        const checked = todosFromData(params, job.settings.todoRange);
        if (!checked.ok) throw refusal(checked.error);
        const written = await files.writeTodos(checked.value);
        if (!written.ok) throw failed('Writing todos.yaml', written.error);
        return {
          message: `Wrote ${plural(checked.value.todos.length, 'todo')} to todos.yaml.`,
          value: checked.value,
        };
      }),
  });

  const jobComplete = defineTool({
    name: 'job_complete',
    description: 'End the job once the plan is fully executed. Strategic phases only.',
    parameters: z.strictObject({
      summary: z.string().max(2000).optional().describe('What the job achieved.'),
    }),
    resultType: PhaseJob,
    handler: ({ summary }, context) =>
      queued(context.session, async () => {
        const job = currentJob(context.session, 'job_complete');
        const now = Math.max(context.now, job.updatedAt);
        const next = completeJob(job, { now, summary: summary ?? null });
        if (!next.ok) throw refusal(next.error);
        return { message: 'The job is complete.', value: from(context.session, job, next.value) };
      }),
  });

  return Object.freeze([todoComplete, todoWrite, jobComplete]) as PhaseTools;
}
