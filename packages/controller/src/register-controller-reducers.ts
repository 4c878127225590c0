import { replaceLatest, Session } from '@plankit/core';
import { ControllerError } from './controller-error.ts';
import { ControllerSnapshot } from './engine/controller-snapshot.ts';

/**
 * Registers `replaceLatest` for {@link ControllerSnapshot} on a core `Session`, so one session
 * snapshot holds the plan and the controller together. A budget kept in the same session needs
 * `registerBudgetReducers` from `@plankit/controller/budget` too. Registering twice is a no-op.
 *
 * @throws ControllerError `argument_invalid` for a value that is not a `Session`
 * @example
 * ```ts
 * registerControllerReducers(session);
 * session.dispatch(ControllerSnapshot, snapshot);
 * const stored = selectLatest(session, ControllerSnapshot);
 * ```
 * @public
 */
export function registerControllerReducers(session: Session): void {
  if (!(session instanceof Session)) {
    throw new ControllerError(
      'argument_invalid',
      'registerControllerReducers: session must be a Session.',
      { field: 'session' },
    );
  }
  session.register(ControllerSnapshot, replaceLatest);
}
