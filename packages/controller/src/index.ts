/**
 * Pure state machines for agent controllers (caps, stalls, soft limits, freeze and resume,
 * traces, Mermaid), a budget manager, confidence thresholds, stage tools, interaction policy,
 * pattern reviews and a ready-made planning controller. The phase, review and workshop workflows
 * built on this engine live in `@plankit/controller/workflows`.
 *
 * @packageDocumentation
 * @module @plankit/controller
 */

// Budget: reserve before a call, settle after it, in integer micro-dollars.
export { budgetFromJSON } from './budget/budget-from-json.ts';
export { BudgetState } from './budget/budget-state.ts';
export {
  type Budget,
  type BudgetCapName,
  type BudgetCaps,
  type BudgetCapsInput,
  type BudgetOptions,
  type BudgetSignal,
  createBudget,
  type OverrunSignal,
  type Reservation,
  type TurnCeilingSignal,
} from './budget/create-budget.ts';
export { type ReserveInput, reserveBudget } from './budget/reserve-budget.ts';
export { setBudgetCaps } from './budget/set-budget-caps.ts';
export { type SettleInput, settleBudget } from './budget/settle-budget.ts';
export {
  type ModelPrice,
  type PriceTable,
  type TokenUsage,
  usageCost,
} from './budget/usage-cost.ts';
// Confidence: one score from several, and the class it falls in.
export {
  type ConfidenceClass,
  type ConfidenceThresholds,
  classifyConfidence,
} from './confidence/classify-confidence.ts';
export {
  type ConfidenceScores,
  type ConfidenceWeights,
  compositeConfidence,
} from './confidence/composite-confidence.ts';
// The engine: define a machine, step it purely, store, replay and draw it.
export {
  ControllerError,
  type ControllerErrorCode,
  type ControllerErrorOptions,
} from './controller-error.ts';
export type {
  AdaptationInput,
  AdaptationLogEntry,
  IntroducedBy,
} from './engine/adaptation-log-entry.ts';
export { allowedOutcomes } from './engine/allowed-outcomes.ts';
// Keeping controller state in a session: the slices and their reducers.
export { ControllerSnapshot } from './engine/controller-snapshot.ts';
export type { CapName, Caps, SoftLimits } from './engine/default-caps.ts';
export {
  type CapCoverage,
  defineMachine,
  type FrozenCaps,
  type MachineDefinition,
  type MachineOptions,
  type OpenCapTargets,
  type StateDefinition,
  type TransitionCandidate,
  type TransitionTarget,
} from './engine/define-machine.ts';
export { type InitialSnapshotOptions, initialSnapshot } from './engine/initial-snapshot.ts';
export { isWrappingUp } from './engine/is-wrapping-up.ts';
export type {
  CapTargets,
  GuardInput,
  Machine,
  MachineCandidate,
  MachineState,
  StateKind,
} from './engine/machine.ts';
export type {
  Counters,
  FrozenState,
  MachineSnapshot,
  PendingEvent,
  StallState,
} from './engine/machine-snapshot.ts';
export { machineSnapshotFromJSON } from './engine/machine-snapshot-from-json.ts';
export type { MachineStatus } from './engine/machine-status.ts';
export { replay } from './engine/replay.ts';
export { type ReportCapInput, reportCap } from './engine/report-cap.ts';
export { type ResumeInput, resume } from './engine/resume.ts';
export type { CapReachedSignal, Signal, StalledSignal, WrapUpSignal } from './engine/signal.ts';
export { toMermaid } from './engine/to-mermaid.ts';
export type { CapAction, CapHit, TraceEntry, TraceKind } from './engine/trace-entry.ts';
export { type MachineEvent, type ToolCallRecord, transition } from './engine/transition.ts';
// The planning controller: a ready-made machine from context to approved roadmap.
export {
  APPROVAL_POLICIES,
  type ApprovalPause,
  type ApprovalPolicy,
  approvalPauses,
} from './planning/approval-cadence.ts';
export {
  APPROVAL_CTA,
  type ApprovalReply,
  parseApprovalReply,
} from './planning/parse-approval-reply.ts';
export {
  createPlanningController,
  type PlanningControllerOptions,
  planningController,
} from './planning/planning-controller.ts';
export {
  type PlanningResult,
  type PlanningResultOptions,
  type PlanningStatus,
  planningResult,
} from './planning/planning-result.ts';
export type { PlanningOutcome, PlanningStage } from './planning/planning-stage.ts';
// Policy and patterns: how the agent interacts, and which pattern a plan may use.
export { type ApprovalCheckpoint, approvalRequired } from './policy/approval-required.ts';
export { InteractionPolicy } from './policy/interaction-policy.ts';
export { limitQuestions } from './policy/limit-questions.ts';
export { PatternSpec } from './policy/pattern-spec.ts';
export { type PolicyLayers, resolvePolicy } from './policy/resolve-policy.ts';
export { type PatternPolicy, type PatternReview, reviewPattern } from './policy/review-pattern.ts';
export { type BrainstormContext, shouldBrainstorm } from './policy/should-brainstorm.ts';
export { variantCount } from './policy/variant-count.ts';
export { registerControllerReducers } from './register-controller-reducers.ts';
// Stage tools: typed tools per stage, run by an executor that enforces the policy.
export {
  checkToolOrder,
  type MissingProducer,
  type ToolOrderOptions,
  type ToolOrderReport,
} from './stage-tools/check-tool-order.ts';
export {
  createToolExecutor,
  type StageToolResult,
  type ToolExecutor,
  type ToolExecutorOptions,
  type ToolRunOptions,
} from './stage-tools/create-tool-executor.ts';
export {
  type AnyStageTool,
  defineStageTool,
  type StageTool,
  type StageToolContext,
  type StageToolDefinition,
  type StageToolOutput,
} from './stage-tools/define-stage-tool.ts';
