import type { StoredVerdict } from '../config/task-checker.ts';
import type { TranscriptEntry, TrialStop } from '../hosts/eval-host.ts';
import type { TrialGoal } from './trial-goal.ts';

/** Plan behaviour in one trial. @public */
export interface PlanActivity {
  /** Distinct steps the model created (over every plan it made). */
  readonly created: number;
  /** Steps `done` in the final plan. */
  readonly completed: number;
  /** Steps created and not done at the end (left open, or dropped with a cleared plan). */
  readonly abandoned: number;
}

/**
 * One trial as the results log stores it.
 *
 * `status`: `finished` trials count in the statistics; `errored` trials (the host threw, e.g. a
 * provider outage; the checker threw; or an LLM judge's reply held no verdict, kept in
 * `verdict.reason`) have no verdict that counts and are reported apart; `cut_short` trials were
 * stopped by the run's total cap or an abort, spent money, and run again on resume.
 *
 * @public
 */
export interface TrialRecord {
  /** The run's config hash (of arm ids, task ids, k and seed); resume refuses another run's. */
  readonly run: string;
  /** `task/arm/repetition`. */
  readonly key: string;
  /** The task. */
  readonly taskId: string;
  /** The arm. */
  readonly armId: string;
  /** The repetition, from 1. */
  readonly repetition: number;
  /** The trial's own seed. */
  readonly seed: number;
  /** See above. */
  readonly status: 'finished' | 'errored' | 'cut_short';
  /** Why the trial stopped taking turns. */
  readonly stop: TrialStop | 'error';
  /** Whether the checker passed it (false unless finished). */
  readonly pass: boolean;
  /** The checker's verdict with its reasoning, when it ran. */
  readonly verdict: StoredVerdict | null;
  /** The error message of an errored trial. */
  readonly error: string | null;
  /** Model calls. */
  readonly turns: number;
  /** Tool calls, planning ones included. */
  readonly toolCalls: number;
  /** Tool calls to the planning tools. */
  readonly planningCalls: number;
  /** Input tokens. */
  readonly inputTokens: number;
  /** Output tokens. */
  readonly outputTokens: number;
  /** Input plus output tokens. */
  readonly tokens: number;
  /** USD spent (0 when the model has no price). */
  readonly usd: number;
  /** Plan behaviour. */
  readonly plan: PlanActivity;
  /** A goal arm's goal: how it ended, why, its goal turns and checks; absent without a goal. */
  readonly goal?: TrialGoal | null | undefined;
  /** Wall time, in milliseconds. */
  readonly durationMs: number;
  /** What happened, in order. */
  readonly transcript: readonly TranscriptEntry[];
}
