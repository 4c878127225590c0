import type { Phase } from '@plankit/prompt';
import type { PhaseArchive } from './phase-archive.ts';
import type { PhaseKind } from './phase-kind.ts';
import type { TodosRule } from './validate-todos.ts';

/** A new phase began: build its system prompt and hand the agent its todos. @public */
export interface PhaseStartedSignal {
  /** Always `phase_started`. */
  readonly type: 'phase_started';
  /** The new phase. */
  readonly phase: Phase;
  /** Its number. */
  readonly phaseNumber: number;
  /** What it is for. */
  readonly kind: PhaseKind;
}

/** Clear the message history: the next phase starts a fresh conversation. @public */
export interface HistoryResetSignal {
  /** Always `history_reset`. */
  readonly type: 'history_reset';
}

/** The strategic hand-off was rejected: the agent must fix `todos.yaml`. @public */
export interface HandoffRejectedSignal {
  /** Always `handoff_rejected`. */
  readonly type: 'handoff_rejected';
  /** The rule the document broke. */
  readonly code: TodosRule;
  /** Why, in one sentence. */
  readonly reason: string;
  /** `Phase transition rejected: <reason>`: the tool message for the agent. */
  readonly message: string;
}

/** A tactical phase is done: write its archive. @public */
export interface PhaseArchivedSignal {
  /** Always `phase_archived`. */
  readonly type: 'phase_archived';
  /** Where, relative to the workspace root: `archive/phase_N.yaml`. */
  readonly path: string;
  /** What to write there. */
  readonly archive: PhaseArchive;
}

/**
 * A hand-off consumed `todos.yaml`: archive it to `archivePath` or remove it, so a later
 * strategic phase that writes no new todos cannot hand the same list off again.
 *
 * @public
 */
export interface TodosConsumedSignal {
  /** Always `todos_consumed`. */
  readonly type: 'todos_consumed';
  /** Always `todos.yaml`. */
  readonly path: 'todos.yaml';
  /** `archive` (move it to `archivePath`) or `remove`, from the job's `todosOnHandoff`. */
  readonly action: 'archive' | 'remove';
  /** `archive/todos_phase_N.yaml` (N: the strategic phase that wrote it) when archiving, else null. */
  readonly archivePath: string | null;
}

/** The plan waits for review: persist the job; a person approves it or requests changes. @public */
export interface ReviewPendingSignal {
  /** Always `review_pending`. */
  readonly type: 'review_pending';
  /** Change requests so far (0 at the first review). */
  readonly cycle: number;
}

/**
 * A reviewer requested changes: write the feedback into `workspace.md` (with
 * `withReviewFeedback`) and start the new conversation with `message`.
 *
 * @public
 */
export interface ReviewFeedbackSignal {
  /** Always `review_feedback`. */
  readonly type: 'review_feedback';
  /** The change request's number, from 1. */
  readonly cycle: number;
  /** The reviewer's words. */
  readonly feedback: string;
  /** The first message of the new strategic conversation. */
  readonly message: string;
}

/** The soft limit on review cycles is reached: offer approval or skipping the review. @public */
export interface ReviewLimitReachedSignal {
  /** Always `review_limit_reached`. */
  readonly type: 'review_limit_reached';
  /** Change requests so far. */
  readonly cycles: number;
  /** The configured limit. */
  readonly limit: number;
}

/** The agent ended the job from a strategic phase. @public */
export interface JobCompletedSignal {
  /** Always `job_completed`. */
  readonly type: 'job_completed';
  /** The agent's summary, or null. */
  readonly summary: string | null;
}

/**
 * An effect, as data, that a phase job step asks the host to carry out, in order.
 *
 * @public
 */
export type PhaseSignal =
  | PhaseStartedSignal
  | HistoryResetSignal
  | HandoffRejectedSignal
  | PhaseArchivedSignal
  | TodosConsumedSignal
  | ReviewPendingSignal
  | ReviewFeedbackSignal
  | ReviewLimitReachedSignal
  | JobCompletedSignal;
