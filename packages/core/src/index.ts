/**
 * Immutable sessions with reducers and selectors, the tool contract, and the six planning
 * tools with stable `S###` step ids.
 *
 * @packageDocumentation
 * @module @plankit/core
 */

export { append } from './append.ts';
export type { DataType } from './define-data-type.ts';
export { dataTypeName, defineDataType } from './define-data-type.ts';
export type {
  AnyTool,
  Tool,
  ToolContext,
  ToolDefinition,
  ToolHandler,
  ToolReturn,
  ToolTraits,
} from './define-tool.ts';
export { defineTool } from './define-tool.ts';
export type {
  BusEvent,
  EventBus,
  EventHandler,
  HandlerFailure,
  PublishResult,
  Unsubscribe,
} from './in-process-event-bus.ts';
export { InProcessEventBus } from './in-process-event-bus.ts';
export type { InvokeToolOptions, ToolResultValue } from './invoke-tool.ts';
export { invokeTool } from './invoke-tool.ts';
export type { PlankitErrorCode, PlankitErrorOptions, ToolValidationCode } from './plankit-error.ts';
export { PlankitError } from './plankit-error.ts';
export type {
  PlankitEvent,
  SessionChange,
  SessionCommitted,
  SessionRolledBack,
  ToolInvoked,
} from './plankit-event.ts';
export type {
  BatchOperationInput,
  PlanBatchInput,
} from './planning/batch/create-batch-tool.ts';
export type {
  BatchAdd,
  BatchMark,
  BatchNote,
  BatchOperation,
  BatchUpdate,
} from './planning/batch/plan-batch.ts';
export { MAX_BATCH_OPERATIONS, PlanBatch, planBatchReducer } from './planning/batch/plan-batch.ts';
export type { CheckPlanOptions } from './planning/check-plan.ts';
export { checkPlan } from './planning/check-plan.ts';
export type {
  BatchToolByName,
  ClaimStepTool,
  DependentPlanningTools,
  DependentPlanningToolsByName,
  OwnerToolsByName,
  PlanBatchTool,
  PlanningToolList,
  PlanningTools,
  PlanningToolsByName,
  PlanningToolsByNameFor,
  PlanningToolsByNameWithoutHistory,
  PlanningToolsFor,
  PlanningToolsOptions,
  PlanningToolsWithoutHistory,
  ReleaseStepTool,
  ToolsByNameWithHistory,
  ToolsWithHistory,
} from './planning/create-planning-tools.ts';
export { createPlanningTools } from './planning/create-planning-tools.ts';
export { criticalPath } from './planning/dependencies/critical-path.ts';
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
export { planToMermaid } from './planning/dependencies/plan-to-mermaid.ts';
export type { BlockedStep } from './planning/dependencies/ready-steps.ts';
export { blockedSteps, readySteps } from './planning/dependencies/ready-steps.ts';
export type {
  PlanDiff,
  StepChange,
  StepFieldChange,
  ValueChange,
} from './planning/history/diff-plans.ts';
export { diffPlans } from './planning/history/diff-plans.ts';
export type { PlanCommandName } from './planning/history/plan-change.ts';
export { MAX_EXPLANATION, PlanChange, planChangeReducer } from './planning/history/plan-change.ts';
export {
  formatPlanRevision,
  MAX_PLAN_REVISIONS,
  PlanRevision,
  planHistory,
  registerPlanHistory,
} from './planning/history/plan-history.ts';
export { formatPlanDiff, renderPlanDiff } from './planning/history/render-plan-diff.ts';
export type { Explained, ExplainedInput, WithHistory } from './planning/history/with-history.ts';
export type { InProgressMode } from './planning/in-progress-rule.ts';
export { IN_PROGRESS_MODES, inProgressRule } from './planning/in-progress-rule.ts';
export { isPlanFinished, openSteps } from './planning/open-steps.ts';
export { MAX_AGENT_ID } from './planning/owners/agent-id.ts';
export {
  ClaimStep,
  claimStepReducer,
  ReleaseStep,
  releaseStepReducer,
} from './planning/owners/owner-commands.ts';
export type { OwnedStepInput } from './planning/owners/owner-tools.ts';
export {
  PLAN_STATUSES,
  Plan,
  PlanStatus,
  PlanStep,
  STEP_STATUSES,
  StepStatus,
} from './planning/plan.ts';
export type {
  AddStepInput,
  MarkStepInput,
  NewPlanStep,
  NewPlanStepInput,
  SetupPlanInput,
  UpdateStepInput,
} from './planning/plan-commands.ts';
export {
  AddStep,
  ClearPlan,
  MarkStep,
  ReadPlan,
  SetupPlan,
  UpdateStep,
} from './planning/plan-commands.ts';
export { registerPlanningReducers } from './planning/planning-reducers.ts';
export {
  PLAN_MODEL_COMMANDS,
  registerPlanModelReducers,
} from './planning/register-plan-model-reducers.ts';
export type { RenderPlanOptions } from './planning/render-plan.ts';
export { renderPlan, renderStep } from './planning/render-plan.ts';
export { formatStepId, highestStepNumber, MAX_STEP_NUMBER } from './planning/step-id.ts';
export type { PlanningLimits } from './planning/text-rules.ts';
export { PLANNING_LIMITS } from './planning/text-rules.ts';
export type { Reducer, ReducerEvent } from './reducer.ts';
export { replaceLatest } from './replace-latest.ts';
export type { Err, Ok, Result } from './result.ts';
export type { SessionOrSnapshot, SessionSource } from './select-all.ts';
export { selectAll } from './select-all.ts';
export { selectLatest } from './select-latest.ts';
export { selectWhere } from './select-where.ts';
export type { Clock, DispatchOptions, RegisterOptions, SessionOptions } from './session.ts';
export { Session } from './session.ts';
export type { SessionErrorCode, SessionErrorOptions } from './session-error.ts';
export { SessionError } from './session-error.ts';
export type { SessionSnapshot } from './session-snapshot.ts';
export { snapshotFromJSON } from './snapshot-from-json.ts';
export type { SessionSnapshotJSON } from './snapshot-to-json.ts';
export { SNAPSHOT_VERSION, snapshotToJSON } from './snapshot-to-json.ts';
export { ToolCall } from './tool-call.ts';
export type { ToolFailure, ToolResult, ToolSuccess } from './tool-result.ts';
export type {
  ToolIssue,
  ToolValidationErrorCode,
  ToolValidationErrorOptions,
} from './tool-validation-error.ts';
export { MAX_TOOL_ISSUES, ToolValidationError } from './tool-validation-error.ts';
export type { UpsertKey } from './upsert-by.ts';
export { upsertBy } from './upsert-by.ts';
