import { deepEqual } from '../internal/deep-equal.ts';
import type { Plan, PlanStep } from '../planning/plan.ts';
import type { PlanChanged, PlanStepChange, PlanStepCounts } from './diagnostics-event.ts';
import { takeStepEdit } from './note-step-edit.ts';

/** The slice a session keeps its plan in (the name of core's `Plan` data type). */
export const PLAN_SLICE = 'plankit.Plan';

/** What a commit or a rollback passes on about the change it made. */
export interface PlanChangeSource {
  readonly sessionId: string;
  readonly revision: number;
  readonly cause: 'commit' | 'rollback';
  readonly at: number;
  readonly callId: string | undefined;
  readonly toolName: string | undefined;
}

type MutableCounts = { -readonly [K in keyof PlanStepCounts]: PlanStepCounts[K] };

const NO_STEPS: readonly PlanStep[] = Object.freeze([]);

/**
 * The counts of the step list a session reported last, so its next change starts from them and
 * looks only at the steps it touched. Each session keeps its own: session state is frozen, so
 * the counts of a list never go stale, and nothing outlives the session.
 */
export interface PlanCountsMemo {
  steps: readonly PlanStep[] | undefined;
  counts: PlanStepCounts | undefined;
}

function latest(slice: readonly unknown[] | undefined): Plan | undefined {
  return slice === undefined ? undefined : (slice[slice.length - 1] as Plan | undefined);
}

function countSteps(steps: readonly PlanStep[]): MutableCounts {
  const counts = { total: steps.length, pending: 0, in_progress: 0, blocked: 0, done: 0 };
  for (const step of steps) bump(counts, step.status, 1);
  return counts;
}

/**
 * Adds `delta` to the count of `status`. A switch rather than `counts[status] += delta`: a
 * store under a key read at run time is several times slower in V8, on every plan change.
 */
function bump(counts: MutableCounts, status: PlanStep['status'], delta: number): void {
  switch (status) {
    case 'pending':
      counts.pending += delta;
      break;
    case 'in_progress':
      counts.in_progress += delta;
      break;
    case 'blocked':
      counts.blocked += delta;
      break;
    case 'done':
      counts.done += delta;
      break;
    default: {
      const unknown: never = status;
      throw new Error(`unreachable: step status ${String(unknown)}`);
    }
  }
}

function change(step: PlanStep, kind: PlanStepChange['change']): PlanStepChange {
  return Object.freeze({ stepId: step.step_id, status: step.status, change: kind });
}

/**
 * The steps `old` and `steps` differ in, and the counts of `steps`. Both lists are trimmed
 * first of the steps they share by position, by identity (reducers keep untouched steps the
 * same object), so a change to one step of a long plan looks at that step only; the rest is
 * matched by id, as step ids are unique within a plan. When the reducer that made `steps` from
 * `old` noted where it changed them (a mark, an add), that range is taken as is, without
 * comparing the rest.
 */
function diffSteps(
  old: readonly PlanStep[],
  steps: readonly PlanStep[],
  memo: PlanCountsMemo,
): { readonly changes: PlanStepChange[]; readonly counts: PlanStepCounts } {
  let start = 0;
  let oldEnd = old.length;
  let end = steps.length;
  const edit = takeStepEdit(old, steps);
  if (edit !== undefined) {
    ({ start, oldEnd, end } = edit);
  } else {
    const shortest = Math.min(old.length, steps.length);
    while (start < shortest && old[start] === steps[start]) start++;
    while (oldEnd > start && end > start && old[oldEnd - 1] === steps[end - 1]) {
      oldEnd--;
      end--;
    }
  }
  const known = memo.steps === old ? memo.counts : undefined;
  // Copied field by field: a spread of the frozen counts takes V8's slow path.
  const counts: MutableCounts =
    known === undefined
      ? countSteps(steps)
      : {
          total: steps.length,
          pending: known.pending,
          in_progress: known.in_progress,
          blocked: known.blocked,
          done: known.done,
        };
  const changes: PlanStepChange[] = [];
  if (oldEnd - start === 1 && end - start === 1) {
    // One step replaced in place (a mark): compared directly, without the map by id.
    const was = old[start] as PlanStep;
    const step = steps[start] as PlanStep;
    if (was.step_id === step.step_id) {
      if (known !== undefined) {
        bump(counts, was.status, -1);
        bump(counts, step.status, 1);
      }
      if (was !== step && (was.status !== step.status || !deepEqual(was, step)))
        changes.push(change(step, 'updated'));
      const frozen = Object.freeze(counts);
      memo.steps = steps;
      memo.counts = frozen;
      return { changes, counts: frozen };
    }
  }
  const previous = new Map<string, PlanStep>();
  for (let i = start; i < oldEnd; i++) {
    const step = old[i] as PlanStep;
    previous.set(step.step_id, step);
    if (known !== undefined) bump(counts, step.status, -1);
  }
  for (let i = start; i < end; i++) {
    const step = steps[i] as PlanStep;
    if (known !== undefined) bump(counts, step.status, 1);
    const was = previous.get(step.step_id);
    previous.delete(step.step_id);
    // A new status is a change without comparing the rest (a mark, the usual change).
    if (was === step || (was !== undefined && was.status === step.status && deepEqual(was, step)))
      continue;
    changes.push(change(step, was === undefined ? 'added' : 'updated'));
  }
  for (const step of previous.values()) changes.push(change(step, 'removed'));
  const frozen = Object.freeze(counts);
  memo.steps = steps;
  memo.counts = frozen;
  return { changes, counts: frozen };
}

/**
 * The {@link PlanChanged} payload for a plan slice going from `before` to `after`: the steps
 * added or changed, in plan order, then those gone. Reducers keep untouched steps as they
 * were, so the steps both plans share at the same place are skipped by identity without being
 * read, and the counts start from the previous change's (held in `memo`, which this updates);
 * a step rebuilt equal is not a change.
 * Runs only while someone listens on `plankit:plan`.
 */
export function planChanged(
  source: PlanChangeSource,
  before: readonly unknown[] | undefined,
  after: readonly unknown[] | undefined,
  memo: PlanCountsMemo = { steps: undefined, counts: undefined },
): PlanChanged {
  const plan = latest(after);
  const { changes, counts } = diffSteps(
    latest(before)?.steps ?? NO_STEPS,
    plan?.steps ?? NO_STEPS,
    memo,
  );
  // Built field by field rather than with conditional spreads, which allocate on every change.
  const payload: { -readonly [K in keyof PlanChanged]: PlanChanged[K] } = {
    type: 'plan-changed',
    sessionId: source.sessionId,
    revision: source.revision,
    cause: source.cause,
    at: source.at,
    planStatus: plan?.status ?? null,
    steps: Object.freeze(changes),
    counts,
    objective: plan?.objective ?? null,
  };
  if (source.callId !== undefined) payload.callId = source.callId;
  if (source.toolName !== undefined) payload.toolName = source.toolName;
  return payload;
}
