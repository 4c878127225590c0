import type { PlanStep } from '../planning/plan.ts';
import { diagnosticsChannel } from './diagnostics-channel.ts';
import { PLAN_CHANNEL } from './diagnostics-channels.ts';

/**
 * Where a reducer's new step list differs from the list it was made from: the steps at
 * `[start, oldEnd)` of `from` became those at `[start, end)` of the new list, and every step
 * outside that range is the same object, in the same order.
 */
export interface StepEdit {
  readonly from: readonly PlanStep[];
  readonly start: number;
  readonly oldEnd: number;
  readonly end: number;
}

// Keyed by the new list, weakly: an entry goes with the plan state that holds the list.
const edits = new WeakMap<readonly PlanStep[], StepEdit>();

/**
 * Notes, while someone listens on `plankit:plan`, where a reducer changed a step list, so the
 * plan change it makes is worked out from that range alone rather than by comparing both
 * lists step by step (a mark on a long plan touches one step). Nothing is kept otherwise.
 *
 * @param from - the step list the reducer started from
 * @param to - the list it made (frozen, as stored)
 * @param start - the first index where the two differ
 * @param oldEnd - where the replaced steps end in `from`
 * @param end - where their replacements end in `to`
 */
export function noteStepEdit(
  from: readonly PlanStep[],
  to: readonly PlanStep[],
  start: number,
  oldEnd: number,
  end: number,
): void {
  if (diagnosticsChannel(PLAN_CHANNEL).hasSubscribers) edits.set(to, { from, start, oldEnd, end });
}

/** The edit {@link noteStepEdit} noted for the list `to`, if any. */
export function stepEditOf(to: readonly PlanStep[]): StepEdit | undefined {
  return edits.get(to);
}
