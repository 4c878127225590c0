import { replaceLatest, Session } from '@plankit/core';
import { ControllerError } from '../controller-error.ts';
import { BudgetState } from './budget-state.ts';

/**
 * Registers `replaceLatest` for {@link BudgetState} on a core `Session`, so the session
 * snapshot holds the budget next to the plan (and the controller, with
 * `registerControllerReducers`). Registering twice is a no-op.
 *
 * @throws ControllerError `argument_invalid` for a value that is not a `Session`
 * @example
 * ```ts
 * registerBudgetReducers(session);
 * session.dispatch(BudgetState, budget);
 * const stored = selectLatest(session, BudgetState);
 * ```
 * @public
 */
export function registerBudgetReducers(session: Session): void {
  if (!(session instanceof Session)) {
    throw new ControllerError(
      'argument_invalid',
      'registerBudgetReducers: session must be a Session.',
      { field: 'session' },
    );
  }
  session.register(BudgetState, replaceLatest);
}
