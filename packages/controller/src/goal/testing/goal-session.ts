import { Session } from '@plankit/core';
import { registerGoalReducers } from '../register-goal-reducers.ts';

export { unwrap } from '../../workflows/testing/unwrap.ts';

/** The time the goal tests start at, in epoch milliseconds. */
export const NOW = 1_700_000_000_000;

/**
 * A session with the goal reducers registered (twice, as registering again must be a no-op)
 * and a clock that starts at {@link NOW} and moves one millisecond per read.
 */
export function goalSession(): Session {
  let tick = NOW;
  const session = new Session({ sessionId: 'goal', clock: () => tick++ });
  registerGoalReducers(session);
  registerGoalReducers(session);
  return session;
}
