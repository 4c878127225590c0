import { type AnyExtensionDataType, type PlanningExtension, replaceLatest } from '@plankit/core';
import {
  ClearGoal,
  clearGoalReducer,
  PauseGoal,
  pauseGoalReducer,
  ResumeGoal,
  resumeGoalReducer,
  SetGoal,
  setGoalReducer,
} from './goal-commands.ts';
import { GoalState } from './goal-state.ts';
import { GOAL_VIEW_FIELD } from './goal-view.ts';

/** What {@link goals} returns: an extension with no tools, only the goal's data. @public */
export type GoalsExtension = PlanningExtension<'goals'>;

// Module constants, so registering on a session twice finds the same reducers (a no-op).
const DATA_TYPES: readonly AnyExtensionDataType[] = Object.freeze([
  { dataType: GoalState, reducer: replaceLatest },
  { dataType: SetGoal, reducer: setGoalReducer, slice: GoalState },
  { dataType: PauseGoal, reducer: pauseGoalReducer, slice: GoalState },
  { dataType: ResumeGoal, reducer: resumeGoalReducer, slice: GoalState },
  { dataType: ClearGoal, reducer: clearGoalReducer, slice: GoalState },
]);

const EXTENSION: GoalsExtension = Object.freeze({
  name: 'goals',
  dataTypes: DATA_TYPES,
  viewFields: Object.freeze([GOAL_VIEW_FIELD]),
});

/**
 * The goal as a plan-model extension: the goal slice ({@link GoalState}, kept with
 * `replaceLatest`) and its typed commands ({@link SetGoal}, {@link PauseGoal},
 * {@link ResumeGoal}, {@link ClearGoal}), which every store attached to the session logs and
 * replays, and the plan-view field `goal` ({@link goalView} of the session's goal, unless none
 * is set or it was cleared), which `planView(session)` adds and `<PlanChecklist>` shows. Pass it to `createPlanningTools` (or `registerPlanningExtensions`) with the others,
 * or call {@link registerGoalReducers}, which registers it.
 *
 * @example
 * ```ts
 * const tools = createPlanningTools(session, { extensions: [goals()] });
 * session.dispatch(SetGoal, { objective: 'Ship the fix', budget: { tokens: 200_000 } });
 * session.dispatch(PauseGoal, { reason: 'Waiting for review' });
 * ```
 * @public
 */
export function goals(): GoalsExtension {
  return EXTENSION;
}
