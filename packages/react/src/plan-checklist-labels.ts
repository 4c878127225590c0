import type { PlanView, PlanViewStep } from '@plankit/core/plan-view';
import { bidiIsolate } from './bidi-isolate.ts';
import type { PlanChecklistGoal } from './plan-checklist-goal.ts';

/**
 * Every text {@link PlanChecklist} shows besides the plan's own words, so an app can translate
 * it. Each row calls `status` once per render, so keep the object stable (a module constant or
 * `useMemo`): a new object each render re-renders every row.
 *
 * `waitingOn` and `revision` put plan text (titles, the explanation) inside a sentence of
 * yours. The defaults wrap such text in U+2068 ... U+2069 (first strong isolate) when it is not
 * ASCII, so a right-to-left title cannot pull the ids and punctuation around it into its run;
 * do the same in your own labels. The element holding the sentence has `dir="auto"`.
 *
 * @public
 */
export interface PlanChecklistLabels {
  /** The checklist's name while there is no plan yet (`No plan yet`). */
  readonly empty: string;
  /** A step's status as text, beside its icon (`Done`, `In progress`). */
  readonly status: (status: PlanViewStep['status']) => string;
  /** What a blocked or not yet ready step waits on (`Waiting on S001 (Draft)`). */
  readonly waitingOn: (steps: readonly Pick<PlanViewStep, 'step_id' | 'title'>[]) => string;
  /** Who holds a step (`Owner: writer`). */
  readonly owner: (owner: string) => string;
  /** The completed counts (`2 of 5 done, 1 in progress`). */
  readonly counts: (counts: PlanView['counts']) => string;
  /** The plan's status; `null` shows nothing (the default for an active plan). */
  readonly planStatus: (status: PlanView['status']) => string | null;
  /** The last revision's explanation (`Last change: the API changed`). */
  readonly revision: (explanation: string) => string;
  /** The goal's line (`Goal (active): Ship it. Used 3 of 100 turns, ...`). */
  readonly goal: (goal: PlanChecklistGoal) => string;
}

const GOAL_STATUS_TEXT: Readonly<Record<string, string>> = {
  active: 'active',
  paused: 'paused',
  blocked: 'blocked, waiting for you',
  budget_limited: 'out of budget',
  achieved: 'achieved',
  unmet: 'unmet',
  cleared: 'cleared',
};

const STATUS_TEXT: Readonly<Record<PlanViewStep['status'], string>> = {
  pending: 'Pending',
  in_progress: 'In progress',
  blocked: 'Blocked',
  done: 'Done',
};

/**
 * The English labels {@link PlanChecklist} uses for any it is not given.
 *
 * @public
 */
export const defaultPlanChecklistLabels: PlanChecklistLabels = Object.freeze({
  empty: 'No plan yet',
  status: (status: PlanViewStep['status']): string => STATUS_TEXT[status],
  waitingOn: (steps: readonly Pick<PlanViewStep, 'step_id' | 'title'>[]): string =>
    `Waiting on ${steps.map((step) => (step.title === '' ? step.step_id : `${step.step_id} (${bidiIsolate(step.title)})`)).join(', ')}`,
  owner: (owner: string): string => `Owner: ${owner}`,
  counts: (counts: PlanView['counts']): string =>
    [
      `${counts.done} of ${counts.total} done`,
      counts.in_progress > 0 ? `${counts.in_progress} in progress` : null,
      counts.blocked > 0 ? `${counts.blocked} blocked` : null,
    ]
      .filter((part) => part !== null)
      .join(', '),
  planStatus: (status: PlanView['status']): string | null => {
    switch (status) {
      case 'active':
        return null;
      case 'completed':
        return 'Plan completed';
      case 'abandoned':
        return 'Plan abandoned';
      default: {
        const unknown: never = status;
        return String(unknown);
      }
    }
  },
  revision: (explanation: string): string => `Last change: ${bidiIsolate(explanation)}`,
  goal: (goal: PlanChecklistGoal): string =>
    `Goal (${Object.hasOwn(GOAL_STATUS_TEXT, goal.status) ? GOAL_STATUS_TEXT[goal.status] : goal.status}): ${bidiIsolate(goal.objective)}${goal.used === undefined ? '' : `. Used ${goal.used}.`}`,
});
