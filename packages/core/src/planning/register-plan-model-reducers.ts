import type { DataType } from '../define-data-type.ts';
import type { Session } from '../session.ts';
import { registerBatchReducer } from './batch/batch.ts';
import { PlanBatch } from './batch/plan-batch.ts';
import { registerDependencyReducers } from './dependencies/dependencies.ts';
import {
  AddStepWithDependencies,
  SetupPlanWithDependencies,
  UpdateStepWithDependencies,
} from './dependencies/dependency-commands.ts';
import { registerPlanChange } from './history/history.ts';
import { PlanChange } from './history/plan-change.ts';
import { ClaimStep, ReleaseStep } from './owners/owner-commands.ts';
import { registerOwnerReducers } from './owners/owners.ts';
import { registerPlanningReducers } from './planning-reducers.ts';

/**
 * Registers the planning reducers and those of the opt-in plan model: setup, add and update
 * with dependencies, batches, claims and releases, and attributed changes ({@link PlanChange}):
 * what the extensions register, all at once. Call it yourself when you dispatch those commands or
 * replay them on a session you set up by hand. Registering twice is a no-op.
 *
 * @public
 */
export function registerPlanModelReducers(session: Session): void {
  registerPlanningReducers(session);
  registerDependencyReducers(session);
  registerBatchReducer(session);
  registerOwnerReducers(session);
  registerPlanChange(session);
}

/**
 * The commands of the opt-in plan model, which write the plan slice rather than a slice of
 * their own. `attachStore` replays them by default; a store of your own that replays commands
 * needs this list.
 *
 * @public
 */
export const PLAN_MODEL_COMMANDS: readonly DataType[] = Object.freeze([
  SetupPlanWithDependencies,
  AddStepWithDependencies,
  UpdateStepWithDependencies,
  PlanBatch,
  ClaimStep,
  ReleaseStep,
  PlanChange,
]);
