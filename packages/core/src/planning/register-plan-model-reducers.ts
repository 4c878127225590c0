import type { DataType } from '../define-data-type.ts';
import type { Session } from '../session.ts';
import { PlanBatch, planBatchReducer } from './batch/plan-batch.ts';
import {
  AddStepWithDependencies,
  addStepWithDependenciesReducer,
  SetupPlanWithDependencies,
  setupPlanWithDependenciesReducer,
  UpdateStepWithDependencies,
  updateStepWithDependenciesReducer,
} from './dependencies/dependency-commands.ts';
import { PlanChange, planChangeReducer } from './history/plan-change.ts';
import {
  ClaimStep,
  claimStepReducer,
  ReleaseStep,
  releaseStepReducer,
} from './owners/owner-commands.ts';
import { Plan } from './plan.ts';
import { registerPlanningReducers } from './planning-reducers.ts';

/**
 * Registers the planning reducers and those of the opt-in plan model: setup, add and update
 * with dependencies, batches, claims and releases, and attributed changes ({@link PlanChange}). `createPlanningTools` does this for the session it is given
 * and every session its tools run on; call it yourself when you dispatch those commands or
 * replay them on a session you set up by hand. Registering twice is a no-op.
 *
 * @public
 */
export function registerPlanModelReducers(session: Session): void {
  registerPlanningReducers(session);
  session.register(SetupPlanWithDependencies, setupPlanWithDependenciesReducer, { slice: Plan });
  session.register(AddStepWithDependencies, addStepWithDependenciesReducer, { slice: Plan });
  session.register(UpdateStepWithDependencies, updateStepWithDependenciesReducer, { slice: Plan });
  session.register(PlanBatch, planBatchReducer, { slice: Plan });
  session.register(ClaimStep, claimStepReducer, { slice: Plan });
  session.register(ReleaseStep, releaseStepReducer, { slice: Plan });
  session.register(PlanChange, planChangeReducer, { slice: Plan });
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
