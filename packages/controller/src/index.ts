/**
 * Pure state machines for agent controllers (caps, stalls, soft limits, freeze and resume,
 * traces, Mermaid), a budget manager, confidence thresholds, stage tools, interaction policy,
 * pattern RFCs, and seed 000's planning controller.
 *
 * @packageDocumentation
 * @module @plankit/controller
 */

export type { AdaptationInput, AdaptationLogEntry, IntroducedBy } from './adaptation-log.ts';
export { adaptationLog, INTRODUCED_BY } from './adaptation-log.ts';
export { allowedOutcomes } from './allowed-outcomes.ts';
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
  CapTargets,
  GuardInput,
  Machine,
  MachineCandidate,
  MachineDefinition,
  MachineState,
  StateDefinition,
  StateKind,
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
  Counters,
  FrozenState,
  MachineSnapshot,
  MachineStatus,
  PendingEvent,
  StallState,
} from './machine-snapshot.ts';
export { MACHINE_SNAPSHOT_VERSION } from './machine-snapshot.ts';
export { machineSnapshotFromJSON } from './machine-snapshot-from-json.ts';
export type { ApprovalReply } from './parse-approval-reply.ts';
export { APPROVAL_CTA, parseApprovalReply } from './parse-approval-reply.ts';
export { CANONICAL_PATTERNS, PatternSpec } from './pattern-spec.ts';
export type {
  PlanningControllerOptions,
  PlanningOutcome,
  PlanningStage,
} from './planning-controller.ts';
export { createPlanningController, planningController } from './planning-controller.ts';
export type { PlanningResult, PlanningResultOptions, PlanningStatus } from './planning-result.ts';
export { planningResult } from './planning-result.ts';
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
