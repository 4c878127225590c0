import { replaceLatest, Session } from '@plankit/core';
import { ControllerError } from '../controller-error.ts';
import { GoalState } from './goal-state.ts';

/**
 * Registers `replaceLatest` for {@link GoalState} on a core `Session`, so the session
 * snapshot holds the goal next to the plan, and every store attached to it logs and replays
 * the goal like the budget. Registering twice is a no-op.
 *
 * @throws ControllerError `argument_invalid` for a value that is not a `Session`
 * @example
 * ```ts
 * registerGoalReducers(session);
 * session.dispatch(GoalState, createGoal({ objective: 'Ship the fix', now: Date.now() }));
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
  session.register(GoalState, replaceLatest);
}
