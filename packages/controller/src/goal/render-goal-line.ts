import { clipText } from '@plankit/core/internal-unstable';
import { endSentence } from '../internal/end-sentence.ts';
import { renderGoalUsage } from './decide-goal.ts';
import type { Goal } from './goal-state.ts';

// The objective's share of the line: the reminder is read every turn, so it stays short.
const OBJECTIVE = 300;

/**
 * One line for the plan reminder: the objective, the status and the budget used, such as
 * `Goal (active): Ship the fix. Used 3 of 100 turns, 1200 tokens, 0.04 of 2 USD.`. It changes
 * only when the goal does, and the reminder goes at the end of a request, so the provider's
 * prompt cache holds.
 *
 * @example
 * ```ts
 * const reminder = renderPlanReminder(plan, { goal: renderGoalLine(goal) });
 * ```
 * @public
 */
export function renderGoalLine(goal: Goal): string {
  const why = goal.reason === null ? '' : ` ${clipText(goal.reason, OBJECTIVE)}`;
  return `Goal (${goal.status}): ${endSentence(clipText(goal.objective, OBJECTIVE))} Used ${renderGoalUsage(goal)}.${why}`;
}
