import type { PlanStep } from '../planning/plan.ts';
import { diagnosticsChannel } from './diagnostics-channel.ts';
import { PLAN_CHANNEL } from './diagnostics-channels.ts';

/**
 * Where a reducer's new step list differs from the list it was made from: the steps at
 * `[start, oldEnd)` of the old list became those at `[start, end)` of the new one, and every
 * step outside that range is the same object, in the same order.
 */
export interface StepEdit {
  readonly start: number;
  readonly oldEnd: number;
  readonly end: number;
}

// One slot, not a map: a session commits a reducer's result in the same synchronous run that
// made it, so the edit a commit looks for is the latest one noted. Taking it empties the
// slot, so it holds on to no plan state.
const last: {
  from: readonly PlanStep[] | undefined;
  to: readonly PlanStep[] | undefined;
  start: number;
  oldEnd: number;
  end: number;
} = { from: undefined, to: undefined, start: 0, oldEnd: 0, end: 0 };

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
  if (!diagnosticsChannel(PLAN_CHANNEL).hasSubscribers) return;
  last.from = from;
  last.to = to;
  last.start = start;
  last.oldEnd = oldEnd;
  last.end = end;
}

/**
 * The edit noted for a change from `from` to `to`, taken (a second take finds nothing), or
 * `undefined` when the latest note is about other lists.
 */
export function takeStepEdit(
  from: readonly PlanStep[],
  to: readonly PlanStep[],
): StepEdit | undefined {
  if (last.to !== to || last.from !== from) return undefined;
  last.from = undefined;
  last.to = undefined;
  return { start: last.start, oldEnd: last.oldEnd, end: last.end };
}
