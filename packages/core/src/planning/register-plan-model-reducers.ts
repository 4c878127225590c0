import type { DataType } from '../define-data-type.ts';
import type { Session } from '../session.ts';
import { BATCH_COMMANDS } from './batch/batch.ts';
import { DEPENDENCY_COMMANDS } from './dependencies/dependencies.ts';
import { HISTORY_COMMANDS } from './history/history.ts';
import { registerDeclaredChanges } from './history/plan-change.ts';
import { OWNER_COMMANDS } from './owners/owners.ts';
import type { AnyPlanningCommand } from './planning-extension.ts';
import { registerPlanningReducers } from './planning-reducers.ts';
import { registerPlanningCommands } from './register-planning-extensions.ts';

// What plankit's own extensions declare, in one list: the plan model's commands.
const COMMANDS: readonly AnyPlanningCommand[] = [
  ...DEPENDENCY_COMMANDS,
  ...BATCH_COMMANDS,
  ...OWNER_COMMANDS,
  ...HISTORY_COMMANDS,
];

/**
 * Registers the planning reducers and those of the opt-in plan model: setup, add and update
 * with dependencies, batches, claims and releases, and attributed changes (`PlanChange`):
 * what plankit's extensions declare, all at once. Call it yourself when you dispatch those
 * commands or replay them on a session you set up by hand (`registerPlanningExtensions` does
 * the same for a list of extensions, yours included). Registering twice is a no-op.
 *
 * @public
 */
export function registerPlanModelReducers(session: Session): void {
  registerPlanningReducers(session);
  registerPlanningCommands(session, COMMANDS);
  // A PlanChange may carry a command an extension registers on this session later.
  registerDeclaredChanges(session);
}

/**
 * The commands of plankit's opt-in plan model (what `dependencies()`, `batch()`, `owners()`
 * and `history()` declare), which write the plan slice rather than a slice of their own. A
 * store attached to a session replays the commands its extensions registered
 * (`planningCommandsOf`); a store of your own that replays commands by hand needs this list
 * (and your extensions' `commands` and `dataTypes`).
 *
 * @public
 */
export const PLAN_MODEL_COMMANDS: readonly DataType[] = Object.freeze(
  COMMANDS.map((command) => command.dataType),
);
