import { Session } from '@plankit/core';
import { registerPlanningExtensions } from '@plankit/core/plan-model';
import { ControllerError } from '../controller-error.ts';
import { goals } from './goals.ts';

/**
 * Registers the {@link goals} extension on a core `Session` (with the planning reducers, as
 * `registerPlanningExtensions` does for any extension): `replaceLatest` for `GoalState`, the
 * goal commands (`SetGoal`, `PauseGoal`, `ResumeGoal`, `ClearGoal`) and the plan view's `goal`
 * field, so the session snapshot holds the goal next to the plan, every store attached to it
 * logs and replays the goal and its commands like the budget, and `planView(session)` shows
 * it. Registering twice is a no-op.
 *
 * @throws ControllerError `argument_invalid` for a value that is not a `Session`
 * @example
 * ```ts
 * registerGoalReducers(session);
 * session.dispatch(SetGoal, { objective: 'Ship the fix' });
 * const goal = selectLatest(session, GoalState);
 * ```
 * @public
 */
export function registerGoalReducers(session: Session): void {
  if (!(session instanceof Session)) {
    throw new ControllerError(
      'argument_invalid',
      'registerGoalReducers: session must be a Session.',
      { field: 'session' },
    );
  }
  registerPlanningExtensions(session, [goals()]);
}
