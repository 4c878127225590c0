/**
 * The opt-in plan model, as extensions for `createPlanningTools`: `dependencies()` (steps
 * wait on others), `batch()` (several changes in one call), `history()` (who changed what,
 * and why) and `owners({ agent })` (agents claim steps), with the commands, reducers and
 * selectors each brings. An app that does not import an extension does not bundle it.
 *
 * @packageDocumentation
 * @module @plankit/core/plan-model
 */

export type { BatchExtension, BatchToolByName, PlanBatchTool } from './planning/batch/batch.ts';
export { batch } from './planning/batch/batch.ts';
export type {
  BatchOperationInput,
  PlanBatchInput,
} from './planning/batch/batch-operation-input.ts';
export type {
  BatchAdd,
  BatchMark,
  BatchNote,
  BatchOperation,
  BatchUpdate,
} from './planning/batch/plan-batch.ts';
export { MAX_BATCH_OPERATIONS, PlanBatch, planBatchReducer } from './planning/batch/plan-batch.ts';
export { criticalPath } from './planning/dependencies/critical-path.ts';
export type {
  DependenciesExtension,
  DependentPlanningToolsByName,
} from './planning/dependencies/dependencies.ts';
export { dependencies } from './planning/dependencies/dependencies.ts';
export type {
  AddStepWithDependenciesInput,
  NewDependentStep,
  NewDependentStepInput,
  SetupPlanWithDependenciesInput,
  UpdateStepWithDependenciesInput,
} from './planning/dependencies/dependency-commands.ts';
export {
  AddStepWithDependencies,
  SetupPlanWithDependencies,
  UpdateStepWithDependencies,
} from './planning/dependencies/dependency-commands.ts';
export type {
  DependencyOptions,
  OpenDependencyMode,
} from './planning/dependencies/dependency-options.ts';
export { MAX_DEPENDENCIES } from './planning/dependencies/dependency-problem.ts';
export { dependencySummary } from './planning/dependencies/dependency-summary.ts';
export type { BlockedStep } from './planning/dependencies/ready-steps.ts';
export { blockedSteps, readySteps } from './planning/dependencies/ready-steps.ts';
export { renderPlanMermaid } from './planning/dependencies/render-plan-mermaid.ts';
export type {
  PlanDiff,
  StepChange,
  StepFieldChange,
  ValueChange,
} from './planning/history/diff-plans.ts';
export { diffPlans } from './planning/history/diff-plans.ts';
export type { HistoryExtension, HistoryOptions } from './planning/history/history.ts';
export { history } from './planning/history/history.ts';
export type { PlanCommandName } from './planning/history/plan-change.ts';
export { MAX_EXPLANATION, PlanChange, planChangeReducer } from './planning/history/plan-change.ts';
export {
  MAX_PLAN_REVISIONS,
  PlanRevision,
  planHistory,
  registerPlanHistory,
  renderPlanRevision,
} from './planning/history/plan-history.ts';
export { renderPlanDiff } from './planning/history/render-plan-diff.ts';
export type {
  Explained,
  ExplainedInput,
  ToolsByNameWithHistory,
  WithHistory,
} from './planning/history/with-history.ts';
export { MAX_AGENT_ID } from './planning/owners/agent-id.ts';
export {
  ClaimStep,
  claimStepReducer,
  ReleaseStep,
  releaseStepReducer,
} from './planning/owners/owner-commands.ts';
export type { OwnedStepInput } from './planning/owners/owner-tools.ts';
export type {
  ClaimStepTool,
  OwnersExtension,
  OwnersOptions,
  OwnerToolsByName,
  ReleaseStepTool,
} from './planning/owners/owners.ts';
export { owners } from './planning/owners/owners.ts';
export {
  PLAN_MODEL_COMMANDS,
  registerPlanModelReducers,
} from './planning/register-plan-model-reducers.ts';
export {
  planningCommandsOf,
  registerPlanningExtensions,
} from './planning/register-planning-extensions.ts';
