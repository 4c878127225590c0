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
export type { CheckPlanOptions } from './planning/check-plan.ts';
export { checkPlan } from './planning/check-plan.ts';
export type {
  PlanningTools,
  PlanningToolsByName,
  PlanningToolsByNameFor,
  PlanningToolset,
  PlanningToolsFor,
  PlanningToolsOptions,
} from './planning/create-planning-tools.ts';
export { createPlanningTools } from './planning/create-planning-tools.ts';
export type { InProgressMode } from './planning/in-progress-rule.ts';
export { isPlanFinished, openSteps } from './planning/open-steps.ts';
export { Plan, PlanStatus, PlanStep, StepStatus } from './planning/plan.ts';
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
export type {
  AnyExtensionDataType,
  AnyPlanningCommand,
  ExtensionDataType,
  PlanningCommand,
  PlanningExtension,
  PlanningExtensionTypes,
  PlanningToolsContext,
} from './planning/planning-extension.ts';
export { registerPlanningReducers } from './planning/planning-reducers.ts';
export type { RenderPlanOptions } from './planning/render-plan.ts';
export { renderPlan, renderStep } from './planning/render-plan.ts';
export { formatStepId, highestStepNumber } from './planning/step-id.ts';
export type { TextMode } from './planning/text-mode.ts';
export type { Reducer, ReducerEvent } from './reducer.ts';
export { replaceLatest } from './replace-latest.ts';
export type { Err, Ok, Result } from './result.ts';
export type { SessionOrSnapshot } from './select-all.ts';
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
export { snapshotToJSON } from './snapshot-to-json.ts';
export { ToolCall } from './tool-call.ts';
export type { ToolFailure, ToolResult, ToolSuccess } from './tool-result.ts';
export type {
  ToolIssue,
  ToolValidationErrorCode,
  ToolValidationErrorOptions,
} from './tool-validation-error.ts';
export { ToolValidationError } from './tool-validation-error.ts';
export type { UpsertKey } from './upsert-by.ts';
export { upsertBy } from './upsert-by.ts';
