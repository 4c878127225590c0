// Sessions inside a `withoutPlanChanges` call. Typed `object` because session.ts reads it (an
// import of Session here would be a cycle); weak, so nothing here keeps a session alive.
const quiet = new WeakSet<object>();

/**
 * Runs `run` with `session`'s plan changes kept off `plankit:plan`: for rebuilding a plan
 * already reported (restoring a host's stored plan into a session made for one turn, or
 * replaying an edit a tool call made), which is not a change and must not reach a trace as
 * one. Tool calls and the changes of every other session are published as usual.
 *
 * @param session - the `Session` whose plan changes `run` makes
 * @param run - synchronous work on `session`, such as a `dispatch`
 * @returns what `run` returns
 */
export function withoutPlanChanges<T>(session: object, run: () => T): T {
  if (quiet.has(session)) return run();
  quiet.add(session);
  try {
    return run();
  } finally {
    quiet.delete(session);
  }
}

/** Whether `session` is inside {@link withoutPlanChanges}: its plan changes go unpublished. */
export function plansQuiet(session: object): boolean {
  return quiet.has(session);
}
