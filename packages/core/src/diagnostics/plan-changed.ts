import { deepEqual } from '../internal/deep-equal.ts';
import type { Plan, PlanStep } from '../planning/plan.ts';
import type { PlanChanged, PlanStepChange, PlanStepCounts } from './diagnostics-event.ts';

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

function latest(slice: readonly unknown[] | undefined): Plan | undefined {
  return slice === undefined ? undefined : (slice[slice.length - 1] as Plan | undefined);
}

function countSteps(steps: readonly PlanStep[]): PlanStepCounts {
  const counts = { total: steps.length, pending: 0, in_progress: 0, blocked: 0, done: 0 };
  for (const step of steps) counts[step.status]++;
  return Object.freeze(counts);
}

/**
 * The {@link PlanChanged} payload for a plan slice going from `before` to `after`: the steps
 * added or changed, in plan order, then those gone. Reducers keep untouched steps as they
 * were, so most are skipped by identity; a step rebuilt equal is not a change. Runs only while someone listens on `plankit:plan`.
 */
export function planChanged(
  source: PlanChangeSource,
  before: readonly unknown[] | undefined,
  after: readonly unknown[] | undefined,
): PlanChanged {
  const old = latest(before)?.steps ?? [];
  const plan = latest(after);
  const steps = plan?.steps ?? [];
  const previous = new Map<string, PlanStep>();
  for (const step of old) previous.set(step.step_id, step);
  const changes: PlanStepChange[] = [];
  for (const step of steps) {
    const was = previous.get(step.step_id);
    previous.delete(step.step_id);
    if (was === step || (was !== undefined && deepEqual(was, step))) continue;
    const change = was === undefined ? 'added' : 'updated';
    changes.push(Object.freeze({ stepId: step.step_id, status: step.status, change }));
  }
  for (const step of previous.values())
    changes.push(Object.freeze({ stepId: step.step_id, status: step.status, change: 'removed' }));
  const payload: PlanChanged = {
    type: 'plan-changed',
    sessionId: source.sessionId,
    revision: source.revision,
    cause: source.cause,
    ...(source.callId === undefined ? {} : { callId: source.callId }),
    ...(source.toolName === undefined ? {} : { toolName: source.toolName }),
    at: source.at,
    planStatus: plan?.status ?? null,
    steps: Object.freeze(changes),
    counts: countSteps(steps),
    objective: plan?.objective ?? null,
  };
  return payload;
}
