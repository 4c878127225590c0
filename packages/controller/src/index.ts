/**
 * Pure state machines for agent controllers (caps, stalls, soft limits, freeze and resume,
 * traces, Mermaid) and a ready-made planning controller. The rest has its own entry, so an app
 * bundles only what it imports: the budget manager in `@plankit/controller/budget`, the
 * interaction policy, pattern reviews and confidence in `@plankit/controller/policy`, stage
 * tools in `@plankit/controller/stage-tools`, goals in `@plankit/controller/goal`, and the
 * phase, review and workshop workflows in `@plankit/controller/workflows`.
 *
 * @packageDocumentation
 * @module @plankit/controller
 */

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
export { renderMachineMermaid } from './engine/render-machine-mermaid.ts';
export { replay } from './engine/replay.ts';
export { type ReportCapInput, reportCap } from './engine/report-cap.ts';
export { type ResumeInput, resume } from './engine/resume.ts';
export type { CapReachedSignal, Signal, StalledSignal, WrapUpSignal } from './engine/signal.ts';
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
} from './planning/planning-controller.ts';
export {
  type PlanningResult,
  type PlanningResultOptions,
  type PlanningStatus,
  planningResult,
} from './planning/planning-result.ts';
export type { PlanningOutcome, PlanningStage } from './planning/planning-stage.ts';
export { registerControllerReducers } from './register-controller-reducers.ts';
