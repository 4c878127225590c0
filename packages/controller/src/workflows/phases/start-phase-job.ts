import { deepFreeze, isRecord } from '@plankit/core/internal-unstable';
import type { TodoRange } from '@plankit/prompt';
import { initialSnapshot } from '../../engine/initial-snapshot.ts';
import { isTime, TIME_RULE, unknownKey } from '../../internal/checks.ts';
import {
  argumentError,
  checkOptions,
  checkStorableOptions,
  isInteger,
} from '../internal/checks.ts';
import { phaseController } from './phase-controller.ts';
import { JOB_ID, type PhaseJob, type PhaseSettings, type TodosOnHandoff } from './phase-job.ts';
import { pending } from './phase-step.ts';
import {
  DEFAULT_TODO_RANGE,
  type PredefinedTodos,
  predefinedTodos,
  type TodoSpec,
} from './predefined-todos.ts';
import { checkLimits, DEFAULT_TODOS_MAX_BYTES } from './validate-todos.ts';

/** Options of {@link startPhaseJob}. @public */
export interface PhaseJobOptions {
  /** The job's id: 1-128 characters `[A-Za-z0-9_.:-]`, starting with a letter or digit. */
  readonly jobId: string;
  /** When the job starts, in epoch milliseconds. */
  readonly now: number;
  /** Whether the first plan waits for a person's review; `false` by default. */
  readonly interactive?: boolean | undefined;
  /** How many todos a tactical phase must have; 5-20 by default. */
  readonly todoRange?: TodoRange | undefined;
  /** Change requests after which the host is told to offer approval; 3 by default, null for none. */
  readonly reviewLimit?: number | null | undefined;
  /** Context tokens past which the host should compact; 80,000 by default. */
  readonly compactionThreshold?: number | undefined;
  /** The largest `todos.yaml` read, in bytes; 64 KiB by default. */
  readonly todosMaxBytes?: number | undefined;
  /** Predefined todo lists replacing the standard ones, each on its own. */
  readonly todos?: Partial<PredefinedTodos> | undefined;
  /**
   * Whether a finished tactical phase is archived to `archive/phase_N.yaml` (
   * `archive_on_transition`); `true` by default.
   */
  readonly archiveOnTransition?: boolean | undefined;
  /**
   * What becomes of `todos.yaml` once a hand-off consumed it (by default a temporary file):
   * `archive` (moved to `archive/todos_phase_N.yaml`, the default) or `remove`.
   */
  readonly todosOnHandoff?: TodosOnHandoff | undefined;
}

/** The default compaction threshold: 80,000 tokens. @public */
export const DEFAULT_COMPACTION_THRESHOLD = 80_000;

/** Change requests after which the host is told to offer approval or skipping: 3. @public */
export const DEFAULT_REVIEW_LIMIT = 3;

const WHERE = 'startPhaseJob';
const OPTION_KEYS: ReadonlySet<string> = new Set([
  'jobId',
  'now',
  'interactive',
  'todoRange',
  'reviewLimit',
  'compactionThreshold',
  'todosMaxBytes',
  'todos',
  'archiveOnTransition',
  'todosOnHandoff',
]);
const LIST_KEYS: ReadonlySet<string> = new Set(['initial', 'transition', 'revision']);
const SPEC_KEYS: ReadonlySet<string> = new Set(['id', 'content']);

function readList(field: string, value: unknown): readonly TodoSpec[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 1000) {
    throw argumentError(WHERE, field, 'must be a list of 1-1000 todos');
  }
  const ids = new Set<number>();
  return value.map((item: unknown, index) => {
    const at = `${field}[${index}]`;
    checkOptionsAt(at, item);
    const { id, content } = item as Record<string, unknown>;
    if (!isInteger(id, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) || ids.has(id)) {
      throw argumentError(WHERE, `${at}.id`, 'must be an integer, unique in its list');
    }
    if (typeof content !== 'string' || content.trim() === '') {
      throw argumentError(WHERE, `${at}.content`, 'must be a non-empty string');
    }
    ids.add(id);
    return { id, content };
  });
}

function checkOptionsAt(field: string, value: unknown): void {
  if (!isRecord(value)) throw argumentError(WHERE, field, 'must be { id, content }');
  const extra = unknownKey(value, SPEC_KEYS);
  if (extra !== undefined) throw argumentError(WHERE, `${field}.${extra}`, 'is not a todo key');
}

function readTodos(value: unknown, range: TodoRange): PredefinedTodos {
  const defaults = predefinedTodos(range);
  if (value === undefined) return defaults;
  if (!isRecord(value)) throw argumentError(WHERE, 'options.todos', 'must be an object');
  const extra = unknownKey(value, LIST_KEYS);
  if (extra !== undefined)
    throw argumentError(WHERE, `options.todos.${extra}`, 'is not a todo list');
  const pick = (key: keyof PredefinedTodos): readonly TodoSpec[] =>
    value[key] === undefined ? defaults[key] : readList(`options.todos.${key}`, value[key]);
  return { initial: pick('initial'), transition: pick('transition'), revision: pick('revision') };
}

/** Checks the options and fills in the defaults. */
function readSettings(options: PhaseJobOptions): PhaseSettings {
  const { interactive = false, reviewLimit = DEFAULT_REVIEW_LIMIT } = options;
  const { compactionThreshold = DEFAULT_COMPACTION_THRESHOLD } = options;
  const { archiveOnTransition = true, todosOnHandoff = 'archive' } = options;
  if (typeof archiveOnTransition !== 'boolean')
    throw argumentError(WHERE, 'options.archiveOnTransition', 'must be a boolean');
  if (todosOnHandoff !== 'archive' && todosOnHandoff !== 'remove')
    throw argumentError(WHERE, 'options.todosOnHandoff', 'must be archive or remove');
  if (typeof interactive !== 'boolean')
    throw argumentError(WHERE, 'options.interactive', 'must be a boolean');
  if (reviewLimit !== null && !isInteger(reviewLimit, 1, Number.MAX_SAFE_INTEGER)) {
    throw argumentError(WHERE, 'options.reviewLimit', 'must be an integer >= 1, or null');
  }
  if (!isInteger(compactionThreshold, 1, Number.MAX_SAFE_INTEGER)) {
    throw argumentError(WHERE, 'options.compactionThreshold', 'must be an integer >= 1');
  }
  const { range, maxBytes } = checkLimits(
    WHERE,
    options.todoRange ?? DEFAULT_TODO_RANGE,
    options.todosMaxBytes ?? DEFAULT_TODOS_MAX_BYTES,
    { range: 'options.todoRange', maxBytes: 'options.todosMaxBytes' },
  );
  return {
    todoRange: range,
    interactive,
    reviewLimit,
    compactionThreshold,
    todosMaxBytes: maxBytes,
    todos: readTodos(options.todos, range),
    archiveOnTransition,
    todosOnHandoff,
  };
}

/**
 * Starts a strategic/tactical job in strategic phase 1 with the initial
 * predefined todos. With `interactive: true`, the first valid hand-off waits for review
 * The settings are kept in the job, so every later step, in any process, uses
 * the same ones.
 *
 * @throws WorkflowError `argument_invalid` naming the option: an unknown key, a bad id,
 *   time, range, limit or todo list
 * @example
 * ```ts
 * const job = startPhaseJob({ jobId: 'job-42', now: Date.now(), interactive: true });
 * job.todos[0].content; // 'Explore the workspace and populate workspace.md ...'
 * ```
 * @public
 */
export function startPhaseJob(options: PhaseJobOptions): PhaseJob {
  checkOptions(WHERE, options, OPTION_KEYS);
  const { jobId, now } = options;
  if (typeof jobId !== 'string' || !JOB_ID.test(jobId)) {
    throw argumentError(WHERE, 'options.jobId', `must match ${JOB_ID.source}`);
  }
  if (!isTime(now)) {
    throw argumentError(WHERE, 'options.now', TIME_RULE);
  }
  const settings = readSettings(options);
  checkStorableOptions(WHERE, options);
  return deepFreeze({
    format: 'plankit.phase-job',
    version: 1,
    jobId,
    settings,
    machine: initialSnapshot(phaseController, { now }),
    phase: 'strategic',
    phaseNumber: 1,
    phaseKind: 'initial',
    title: null,
    description: null,
    todos: pending(settings.todos.initial),
    handoff: null,
    review: { status: settings.interactive ? 'required' : 'off', cycles: 0, feedback: [] },
    startedAt: now,
    updatedAt: now,
    signals: [{ type: 'phase_started', phase: 'strategic', phaseNumber: 1, kind: 'initial' }],
  });
}
