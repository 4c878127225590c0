import { defineDataType } from '@plankit/core';
import type { Phase, TodoRange } from '@plankit/prompt';
import * as z from 'zod';
import { ControllerSnapshot } from '../../engine/controller-snapshot.ts';
import type { MachineSnapshot } from '../../engine/machine-snapshot.ts';
import { storedCount } from '../../internal/stored-numbers.ts';
import type { PhaseOutcome, PhaseStage } from './phase-controller.ts';
import type { PhaseKind } from './phase-kind.ts';
import type { PhaseSignal } from './phase-signal.ts';
import type { PredefinedTodos } from './predefined-todos.ts';
import type { Todo } from './todo.ts';
import { MAX_BYTES_LIMIT, type TodosDocument } from './validate-todos.ts';

/**
 * `off`: the job is not interactive. `required`: the next valid hand-off waits for review.
 * `approved`, `skipped`: the review is over.
 *
 * @public
 */
export type ReviewStatus = 'off' | 'required' | 'approved' | 'skipped';

/** One change request. @public */
export interface ReviewFeedback {
  /** Its number, from 1. */
  readonly cycle: number;
  /** When, in epoch milliseconds. */
  readonly at: number;
  /** The reviewer's words. */
  readonly feedback: string;
}

/** Where the review of the first plan stands. @public */
export interface ReviewState {
  /** See {@link ReviewStatus}. */
  readonly status: ReviewStatus;
  /** Change requests so far. */
  readonly cycles: number;
  /** Every change request, oldest first. */
  readonly feedback: readonly ReviewFeedback[];
}

/** A job's settings, fixed when it starts and kept in it. @public */
export interface PhaseSettings {
  /** How many todos a tactical phase must have. */
  readonly todoRange: TodoRange;
  /** Whether the first plan waits for review. */
  readonly interactive: boolean;
  /** Change requests after which the host is told to offer approval (soft), or null. */
  readonly reviewLimit: number | null;
  /** Context tokens past which the host should compact. */
  readonly compactionThreshold: number;
  /** The largest `todos.yaml` read, in bytes. */
  readonly todosMaxBytes: number;
  /** The predefined strategic todos. */
  readonly todos: PredefinedTodos;
  /** Whether a finished tactical phase is archived to `archive/phase_N.yaml` (`archive_on_transition`). */
  readonly archiveOnTransition: boolean;
  /** What becomes of `todos.yaml` once a hand-off consumed it: moved to `archive/todos_phase_N.yaml`, or removed. */
  readonly todosOnHandoff: TodosOnHandoff;
}

/** What becomes of `todos.yaml` once a hand-off consumed it. @public */
export type TodosOnHandoff = 'archive' | 'remove';

/**
 * A strategic/tactical job: deeply frozen plain JSON, safe to store and to resume in another
 * process with `phaseJobFromJSON`. Also a core data type (`plankit.controller.PhaseJob`), so
 * a job can live in a `Session` slice.
 *
 * @public
 */
export interface PhaseJob {
  /** Always `plankit.phase-job`. */
  readonly format: 'plankit.phase-job';
  /** The format version, 1. */
  readonly version: 1;
  /** The job's id. */
  readonly jobId: string;
  /** The settings. */
  readonly settings: PhaseSettings;
  /** The phase controller's snapshot: state, trace, counters. */
  readonly machine: MachineSnapshot<PhaseStage, PhaseOutcome>;
  /** The current (or, while waiting for review or done, the last) phase. */
  readonly phase: Phase;
  /** The phase's number, from 1. */
  readonly phaseNumber: number;
  /** What the phase is for. */
  readonly phaseKind: PhaseKind;
  /** The `phase` title of the todos document a tactical phase runs, else null. */
  readonly title: string | null;
  /** The `description` of that document, else null. */
  readonly description: string | null;
  /** The phase's todos. */
  readonly todos: readonly Todo[];
  /** The validated todos held while the plan waits for review, else null. */
  readonly handoff: TodosDocument | null;
  /** The review of the first plan. */
  readonly review: ReviewState;
  /** When the job started, in epoch milliseconds. */
  readonly startedAt: number;
  /** When the last step happened, in epoch milliseconds. */
  readonly updatedAt: number;
  /** What the last step asks the host to do, in order. */
  readonly signals: readonly PhaseSignal[];
}

/** The longest review feedback, in characters. */
export const FEEDBACK_LIMIT = 20_000;
/** The longest summary or reason, in characters (the engine's limit for trace reasons). */
export const REASON_LIMIT = 2000;
/**
 * Job ids: 1-128 characters of `[A-Za-z0-9_.:-]`, starting with a letter or digit, so an id is
 * safe as one folder name on every file system a workspace may live on.
 */
export const JOB_ID: RegExp = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

const count = storedCount;
const time = z.number().finite();
const id = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const content = z.string().min(1).max(MAX_BYTES_LIMIT);
const optionalText = z.string().max(MAX_BYTES_LIMIT).nullable();
const phase = z.enum(['strategic', 'tactical']);
const kind = z.enum(['initial', 'revision', 'transition', 'tactical']);
const spec = z.strictObject({ id, content });
const todo = z.strictObject({
  id,
  content,
  status: z.enum(['pending', 'in_progress', 'completed']),
});
const specs = z.array(spec).min(1).max(1000);
const archive = z.strictObject({
  phaseNumber: count.min(1),
  title: optionalText,
  description: optionalText,
  todos: z.array(todo).max(1000),
});
const todosRule = z.enum([
  'todos_missing',
  'todos_too_large',
  'todos_yaml_invalid',
  'todos_list_missing',
  'todos_count',
  'todo_invalid',
  'todo_id_duplicate',
]);
const feedback = z.string().min(1).max(FEEDBACK_LIMIT);

const signal = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('phase_started'), phase, phaseNumber: count.min(1), kind }),
  z.strictObject({ type: z.literal('history_reset') }),
  z.strictObject({
    type: z.literal('handoff_rejected'),
    code: todosRule,
    reason: z.string().max(2 * REASON_LIMIT),
    message: z.string().max(2 * REASON_LIMIT),
  }),
  z.strictObject({
    type: z.literal('phase_archived'),
    path: z.string().regex(/^archive\/phase_[1-9][0-9]*\.yaml$/),
    archive,
  }),
  z.strictObject({
    type: z.literal('todos_consumed'),
    path: z.literal('todos.yaml'),
    action: z.enum(['archive', 'remove']),
    archivePath: z
      .string()
      .regex(/^archive\/todos_phase_[1-9][0-9]*\.yaml$/)
      .nullable(),
  }),
  z.strictObject({ type: z.literal('review_pending'), cycle: count }),
  z.strictObject({
    type: z.literal('review_feedback'),
    cycle: count.min(1),
    feedback,
    message: z.string().max(2 * FEEDBACK_LIMIT),
  }),
  z.strictObject({
    type: z.literal('review_limit_reached'),
    cycles: count.min(1),
    limit: count.min(1),
  }),
  z.strictObject({
    type: z.literal('job_completed'),
    summary: z.string().max(REASON_LIMIT).nullable(),
  }),
]);

const schema = z.strictObject({
  format: z.literal('plankit.phase-job'),
  version: z.literal(1),
  jobId: z.string().regex(JOB_ID),
  settings: z.strictObject({
    todoRange: z.strictObject({ min: count.min(1).max(1000), max: count.min(1).max(1000) }),
    interactive: z.boolean(),
    reviewLimit: count.min(1).nullable(),
    compactionThreshold: count.min(1),
    todosMaxBytes: count.min(1).max(MAX_BYTES_LIMIT),
    todos: z.strictObject({ initial: specs, transition: specs, revision: specs }),
    // Jobs stored before these settings existed keep the original behaviour.
    archiveOnTransition: z.boolean().default(true),
    todosOnHandoff: z.enum(['archive', 'remove']).default('archive'),
  }),
  machine: ControllerSnapshot,
  phase,
  phaseNumber: count.min(1),
  phaseKind: kind,
  title: optionalText,
  description: optionalText,
  todos: z.array(todo).max(1000),
  handoff: z
    .strictObject({
      phase: optionalText,
      description: optionalText,
      todos: z.array(spec).min(1).max(1000),
    })
    .nullable(),
  review: z.strictObject({
    status: z.enum(['off', 'required', 'approved', 'skipped']),
    cycles: count,
    feedback: z.array(z.strictObject({ cycle: count.min(1), at: time, feedback })),
  }),
  startedAt: time,
  updatedAt: time,
  signals: z.array(signal).max(16),
});

/**
 * Schema of {@link PhaseJob}, and the data type of a job kept in a session slice:
 * `selectLatest(session, PhaseJob)`. It checks the shape; `phaseJobFromJSON` also checks the
 * machine snapshot and that the parts agree.
 *
 * @public
 */
export const PhaseJob: z.ZodType<PhaseJob> = defineDataType(
  'plankit.controller.PhaseJob',
  // The machine snapshot's states and outcomes are checked against the machine when read.
  schema as unknown as z.ZodType<PhaseJob>,
);
