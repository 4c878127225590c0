import { dataTypeName } from '@plankit/core';
import type { PlanViewField, PlanViewFieldValue } from '@plankit/core/plan-view';
import { renderGoalUsage } from './decide-goal.ts';
import {
  type Goal,
  type GoalBudget,
  type GoalCounters,
  GoalState,
  type GoalStatus,
  type GoalVerdictKind,
} from './goal-state.ts';

/**
 * The goal as a plan view carries it (`view.fields.goal`, added by the `goals()` extension),
 * and as `<PlanChecklist>` of `@plankit/react` shows it: JSON data, deeply frozen.
 *
 * @public
 */
export interface GoalView {
  /** What the agent works toward. */
  readonly objective: string;
  /** Where the goal stands. */
  readonly status: GoalStatus;
  /** What it used of its budget, in words: {@link renderGoalUsage}. */
  readonly used: string;
  /** The caps: each `null` (no cap) or a limit. */
  readonly budget: GoalBudget;
  /** What the goal used. */
  readonly counters: GoalCounters;
  /** Why the goal stopped, paused or asks, or `null` while it is active. */
  readonly reason: string | null;
  /** What to ask the person when blocked, or `null`. */
  readonly question: string | null;
  /** The last verdict and its reason, or `null` before the first check. */
  readonly verdict: { readonly verdict: GoalVerdictKind; readonly reason: string } | null;
}

// A goal is frozen and replaced whole, so its view is built once: a UI that keys on identity
// re-renders only when the goal changed.
const views = new WeakMap<Goal, GoalView>();

/**
 * The view of a goal: its objective, status, budget used (in words and in numbers), caps, why
 * it stopped or asks, and the last verdict's reason; not the trace or the guard's state.
 *
 * @example
 * ```ts
 * const goal = selectLatest(session, GoalState);
 * if (goal !== undefined) console.log(goalView(goal).used);
 * ```
 * @public
 */
export function goalView(goal: Goal): GoalView {
  const known = views.get(goal);
  if (known !== undefined) return known;
  const view: GoalView = Object.freeze({
    objective: goal.objective,
    status: goal.status,
    used: renderGoalUsage(goal),
    budget: Object.freeze({ ...goal.budget }),
    counters: Object.freeze({ ...goal.counters }),
    reason: goal.reason,
    question: goal.question,
    verdict:
      goal.verdict === null
        ? null
        : Object.freeze({ verdict: goal.verdict.verdict, reason: goal.verdict.reason }),
  });
  if (Object.isFrozen(goal)) views.set(goal, view);
  return view;
}

const GOAL_SLICE = dataTypeName(GoalState);

/**
 * The plan-view field `goal` that the `goals()` extension adds: the {@link goalView} of the
 * session's goal, left out when there is none or it was cleared.
 */
export const GOAL_VIEW_FIELD: PlanViewField = Object.freeze({
  name: 'goal',
  read: (slices: Readonly<Record<string, readonly unknown[]>>): PlanViewFieldValue | null => {
    const goals = Object.hasOwn(slices, GOAL_SLICE) ? slices[GOAL_SLICE] : undefined;
    const goal = goals?.[goals.length - 1] as Goal | undefined;
    if (goal === undefined || goal.status === 'cleared') return null;
    return goalView(goal) as unknown as PlanViewFieldValue;
  },
});
