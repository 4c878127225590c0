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
import { Plan } from './plan.ts';
import { registerPlanningReducers } from './planning-reducers.ts';

/**
 * Registers the planning reducers and those of the opt-in plan model: setup, add and update
 * with dependencies, and batches. `createPlanningTools` does this for the session it is given
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
}
