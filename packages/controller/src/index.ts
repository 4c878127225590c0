/**
 * Pure state machines for agent controllers (caps, stalls, soft limits, freeze and resume,
 * traces, Mermaid), a budget manager, confidence thresholds, stage tools, interaction policy,
 * pattern RFCs, seed 000's planning controller, and the workflows built on the engine:
 * strategic/tactical phases with review (seeds 001, 002) and the planning workshop (seed 004).
 *
 * @packageDocumentation
 * @module @plankit/controller
 */

export { adaptationLog } from './adaptation-log.ts';
export type { AdaptationInput, AdaptationLogEntry, IntroducedBy } from './adaptation-log-entry.ts';
export { INTRODUCED_BY } from './adaptation-log-entry.ts';
export { allowedOutcomes } from './allowed-outcomes.ts';
export type { ApprovalPause, ApprovalPolicy } from './approval-cadence.ts';
export { APPROVAL_PAUSES, APPROVAL_POLICIES, approvalPauses } from './approval-cadence.ts';
export type { ApprovalCheckpoint } from './approval-required.ts';
export { approvalRequired } from './approval-required.ts';
export { budgetFromJSON } from './budget-from-json.ts';
export { BudgetState } from './budget-state.ts';
export type { MissingProducer, ToolOrderOptions, ToolOrderReport } from './check-tool-order.ts';
export { checkToolOrder } from './check-tool-order.ts';
export type { ConfidenceClass, ConfidenceThresholds } from './classify-confidence.ts';
export { classifyConfidence, DEFAULT_CONFIDENCE_THRESHOLDS } from './classify-confidence.ts';
export type { ConfidenceScores, ConfidenceWeights } from './composite-confidence.ts';
export { compositeConfidence, DEFAULT_CONFIDENCE_WEIGHTS } from './composite-confidence.ts';
export type { ControllerErrorCode, ControllerErrorOptions } from './controller-error.ts';
export { ControllerError } from './controller-error.ts';
export { ControllerSnapshot } from './controller-snapshot.ts';
export type {
  Budget,
  BudgetCapName,
  BudgetCaps,
  BudgetOptions,
  BudgetSignal,
  OverrunSignal,
  Reservation,
  TurnCeilingSignal,
} from './create-budget.ts';
export { createBudget, DEFAULT_BUDGET_CAPS } from './create-budget.ts';
export type {
  StageToolResult,
  ToolExecutor,
  ToolExecutorOptions,
  ToolRunOptions,
} from './create-tool-executor.ts';
export { createToolExecutor } from './create-tool-executor.ts';
export type { CapName, Caps, SoftLimits } from './default-caps.ts';
export { CAP_NAMES, DEFAULT_CAPS, DEFAULT_SOFT_LIMITS } from './default-caps.ts';
export type {
  MachineDefinition,
  StateDefinition,
  TransitionCandidate,
  TransitionTarget,
} from './define-machine.ts';
export { defineMachine } from './define-machine.ts';
export type {
  AnyStageTool,
  StageTool,
  StageToolContext,
  StageToolDefinition,
  StageToolOutput,
} from './define-stage-tool.ts';
export { defineStageTool } from './define-stage-tool.ts';
export type { InitialSnapshotOptions } from './initial-snapshot.ts';
export { initialSnapshot } from './initial-snapshot.ts';
export { DEFAULT_INTERACTION_POLICY, InteractionPolicy } from './interaction-policy.ts';
export { isWrappingUp } from './is-wrapping-up.ts';
export { limitQuestions } from './limit-questions.ts';
export type {
  CapTargets,
  GuardInput,
  Machine,
  MachineCandidate,
  MachineState,
  StateKind,
} from './machine.ts';
export type {
  Counters,
  FrozenState,
  MachineSnapshot,
  PendingEvent,
  StallState,
} from './machine-snapshot.ts';
export { MACHINE_SNAPSHOT_VERSION } from './machine-snapshot.ts';
export { machineSnapshotFromJSON } from './machine-snapshot-from-json.ts';
export type { MachineStatus } from './machine-status.ts';
export type { ApprovalReply } from './parse-approval-reply.ts';
export { APPROVAL_CTA, parseApprovalReply } from './parse-approval-reply.ts';
export { CANONICAL_PATTERNS, PatternSpec } from './pattern-spec.ts';
export type { PlanningControllerOptions } from './planning-controller.ts';
export { createPlanningController, planningController } from './planning-controller.ts';
export type { PlanningResult, PlanningResultOptions, PlanningStatus } from './planning-result.ts';
export { planningResult } from './planning-result.ts';
export type { PlanningOutcome, PlanningStage } from './planning-stage.ts';
export { registerControllerReducers } from './register-controller-reducers.ts';
export { replay } from './replay.ts';
export type { ReportCapInput } from './report-cap.ts';
export { reportCap } from './report-cap.ts';
export type { ReserveInput } from './reserve-budget.ts';
export { reserveBudget } from './reserve-budget.ts';
export type { PolicyLayers } from './resolve-policy.ts';
export { resolvePolicy } from './resolve-policy.ts';
export type { ResumeInput } from './resume.ts';
export { resume } from './resume.ts';
export type { PatternPolicy, PatternReview } from './review-pattern.ts';
export { reviewPattern } from './review-pattern.ts';
export { setBudgetCaps } from './set-budget-caps.ts';
export type { SettleInput } from './settle-budget.ts';
export { settleBudget } from './settle-budget.ts';
export type { BrainstormContext } from './should-brainstorm.ts';
export { shouldBrainstorm } from './should-brainstorm.ts';
export type { CapReachedSignal, Signal, StalledSignal, WrapUpSignal } from './signal.ts';
export { toMermaid } from './to-mermaid.ts';
export type { CapAction, CapHit, TraceEntry, TraceKind } from './trace-entry.ts';
export type { MachineEvent, ToolCallRecord } from './transition.ts';
export { transition } from './transition.ts';
export type { ModelPrice, PriceTable, TokenUsage } from './usage-cost.ts';
export { usageCost } from './usage-cost.ts';
export { variantCount } from './variant-count.ts';
export { approvePlan } from './workflows/approve-plan.ts';
export type { ArchiveTranscriptInput } from './workflows/archive-transcript.ts';
export { archiveTranscript } from './workflows/archive-transcript.ts';
export { checkFilePlan } from './workflows/check-file-plan.ts';
export type { CompactionInput, CompactionSignal } from './workflows/compaction-signal.ts';
export { compactionSignal } from './workflows/compaction-signal.ts';
export type { CompleteJobInput } from './workflows/complete-job.ts';
export { completeJob } from './workflows/complete-job.ts';
export type { CompleteTodoInput } from './workflows/complete-todo.ts';
export { completeTodo } from './workflows/complete-todo.ts';
export type {
  GetTodosParams,
  GetTraceParams,
  InspectionFiles,
  InspectionTools,
  InspectionToolsOptions,
  ListWorkspaceFilesParams,
  ReadWorkspaceFileParams,
  SearchWorkspaceParams,
  WorkspaceEntry,
} from './workflows/create-inspection-tools.ts';
export { createInspectionTools } from './workflows/create-inspection-tools.ts';
export type {
  JobCompleteParams,
  PhaseFiles,
  PhaseTools,
  PhaseToolsOptions,
  TodoCompleteParams,
  TodoWriteParams,
  WorkspaceProblem,
} from './workflows/create-phase-tools.ts';
export { createPhaseTools } from './workflows/create-phase-tools.ts';
export type { PhaseArchive } from './workflows/phase-archive.ts';
export type { PhaseOutcome, PhaseStage } from './workflows/phase-controller.ts';
export { phaseController } from './workflows/phase-controller.ts';
export type {
  PhaseSettings,
  ReviewFeedback,
  ReviewState,
  ReviewStatus,
  TodosOnHandoff,
} from './workflows/phase-job.ts';
export { PhaseJob } from './workflows/phase-job.ts';
export { phaseJobFromJSON } from './workflows/phase-job-from-json.ts';
export type { PhaseKind } from './workflows/phase-kind.ts';
export type { PhasePromptInput } from './workflows/phase-prompt.ts';
export { phasePrompt } from './workflows/phase-prompt.ts';
export type {
  HandoffRejectedSignal,
  HistoryResetSignal,
  JobCompletedSignal,
  PhaseArchivedSignal,
  PhaseSignal,
  PhaseStartedSignal,
  ReviewFeedbackSignal,
  ReviewLimitReachedSignal,
  ReviewPendingSignal,
  TodosConsumedSignal,
} from './workflows/phase-signal.ts';
export type { PhaseToolConfig } from './workflows/phase-tool-names.ts';
export { phaseToolNames, selectPhaseTools } from './workflows/phase-tool-names.ts';
export type { PredefinedTodos, TodoSpec } from './workflows/predefined-todos.ts';
export {
  DEFAULT_TODO_RANGE,
  PREDEFINED_TODOS,
  predefinedTodos,
} from './workflows/predefined-todos.ts';
export type { RedoWorkshopInput } from './workflows/redo-workshop.ts';
export { redoWorkshop } from './workflows/redo-workshop.ts';
export { renderPlanMarkdown } from './workflows/render-plan-markdown.ts';
export type { RequestChangesInput } from './workflows/request-changes.ts';
export { requestChanges } from './workflows/request-changes.ts';
// Workflows on the engine (seeds 001, 002, 004).
export type { ReviewDecisionInput } from './workflows/review-decision-input.ts';
export { skipReview } from './workflows/skip-review.ts';
export type { PhaseJobOptions } from './workflows/start-phase-job.ts';
export {
  DEFAULT_COMPACTION_THRESHOLD,
  DEFAULT_REVIEW_LIMIT,
  startPhaseJob,
} from './workflows/start-phase-job.ts';
export type { WorkshopOptions } from './workflows/start-workshop.ts';
export { startWorkshop } from './workflows/start-workshop.ts';
export type { Todo, TodoStatus } from './workflows/todo.ts';
export { todosPlan } from './workflows/todos-plan.ts';
export type {
  OversizedFile,
  TodosDocument,
  TodosRule,
  TodosSource,
  TodosValidationOptions,
} from './workflows/validate-todos.ts';
export { DEFAULT_TODOS_MAX_BYTES, validateTodos } from './workflows/validate-todos.ts';
export type { FeedbackEntry } from './workflows/with-review-feedback.ts';
export { withReviewFeedback } from './workflows/with-review-feedback.ts';
export type { WorkflowErrorCode } from './workflows/workflow-error.ts';
export { WorkflowError } from './workflows/workflow-error.ts';
export { workshopFromJSON } from './workflows/workshop-from-json.ts';
export type { WorkshopOutcome, WorkshopStage } from './workflows/workshop-machine.ts';
export { workshopMachine } from './workflows/workshop-machine.ts';
export type {
  FilePlanEntry,
  WorkshopSubtask,
  WorkshopTask,
} from './workflows/workshop-plan.ts';
export { FilePlan, WorkshopPlan } from './workflows/workshop-plan.ts';
export type {
  RoundEntry,
  RoundSignals,
  WorkshopRoundInput,
} from './workflows/workshop-round.ts';
export { workshopRound } from './workflows/workshop-round.ts';
export type { WorkshopSectionOptions } from './workflows/workshop-section.ts';
export { workshopSection } from './workflows/workshop-section.ts';
export type { WorkshopSignal, WorkshopSignalName } from './workflows/workshop-signals.ts';
export { WORKSHOP_SIGNAL_NAMES, WORKSHOP_SIGNALS } from './workflows/workshop-signals.ts';
export type {
  RedoSnapshot,
  TranscriptEntry,
  WorkshopArtifact,
} from './workflows/workshop-state.ts';
export {
  DEFAULT_WORKSHOP_ARTIFACTS,
  WorkshopState,
} from './workflows/workshop-state.ts';
export type { WriteArtifactInput } from './workflows/write-artifact.ts';
export { writeArtifact } from './workflows/write-artifact.ts';
