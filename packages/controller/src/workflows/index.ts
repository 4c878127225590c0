/**
 * Workflows built on the controller engine: alternating strategic and tactical phases with a
 * todo list kept in the workspace, a human review between them, and a planning workshop that
 * drafts, critiques and revises a file plan in rounds. This entry reads and writes YAML, so it
 * is kept apart from the pure engine in `@plankit/controller`.
 *
 * @packageDocumentation
 * @module @plankit/controller/workflows
 */

// Phases: a job alternates strategic planning and tactical work over a todo list.
export {
  type CompactionInput,
  type CompactionSignal,
  compactionSignal,
} from './phases/compaction-signal.ts';
export { type CompleteJobInput, completeJob } from './phases/complete-job.ts';
export { type CompleteTodoInput, completeTodo } from './phases/complete-todo.ts';
export {
  createPhaseTools,
  type JobCompleteParams,
  type PhaseFiles,
  type PhaseTools,
  type PhaseToolsOptions,
  type TodoCompleteParams,
  type TodoWriteParams,
  type WorkspaceProblem,
} from './phases/create-phase-tools.ts';
export type { PhaseArchive } from './phases/phase-archive.ts';
export { type PhaseOutcome, type PhaseStage, phaseController } from './phases/phase-controller.ts';
export {
  PhaseJob,
  type PhaseSettings,
  type ReviewFeedback,
  type ReviewState,
  type ReviewStatus,
  type TodosOnHandoff,
} from './phases/phase-job.ts';
export { phaseJobFromJSON } from './phases/phase-job-from-json.ts';
export type { PhaseKind } from './phases/phase-kind.ts';
export { type PhasePromptInput, phasePrompt } from './phases/phase-prompt.ts';
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
} from './phases/phase-signal.ts';
export {
  type PhaseToolConfig,
  phaseToolNames,
  selectPhaseTools,
} from './phases/phase-tool-names.ts';
export {
  PREDEFINED_TODOS,
  type PredefinedTodos,
  predefinedTodos,
  type TodoSpec,
} from './phases/predefined-todos.ts';
export { type PhaseJobOptions, startPhaseJob } from './phases/start-phase-job.ts';
export type { Todo, TodoStatus } from './phases/todo.ts';
export { type TodosPlanOptions, todosPlan } from './phases/todos-plan.ts';
export {
  type OversizedFile,
  type TodosDocument,
  type TodosRule,
  type TodosSource,
  type TodosValidationOptions,
  validateTodos,
} from './phases/validate-todos.ts';
// Review: a person approves the plan, asks for changes or skips review between phases.
export { approvePlan } from './review/approve-plan.ts';
export {
  createInspectionTools,
  type GetTodosParams,
  type GetTraceParams,
  type InspectionFiles,
  type InspectionTools,
  type InspectionToolsOptions,
  type ListWorkspaceFilesParams,
  type ReadWorkspaceFileParams,
  type SearchWorkspaceParams,
  type WorkspaceEntry,
} from './review/create-inspection-tools.ts';
export { type RequestChangesInput, requestChanges } from './review/request-changes.ts';
export type { ReviewDecisionInput } from './review/review-decision-input.ts';
export { skipReview } from './review/skip-review.ts';
export { type FeedbackEntry, withReviewFeedback } from './review/with-review-feedback.ts';
export { WorkflowError, type WorkflowErrorCode } from './workflow-error.ts';

// Workshop: rounds of drafting, critique and revision that end in a checked file plan.
export { type ArchiveTranscriptInput, archiveTranscript } from './workshop/archive-transcript.ts';
export { checkFilePlan } from './workshop/check-file-plan.ts';
export { type RedoWorkshopInput, redoWorkshop } from './workshop/redo-workshop.ts';
export { renderPlanMarkdown } from './workshop/render-plan-markdown.ts';
export { startWorkshop, type WorkshopOptions } from './workshop/start-workshop.ts';
export { workshopFromJSON } from './workshop/workshop-from-json.ts';
export {
  type WorkshopOutcome,
  type WorkshopStage,
  workshopMachine,
} from './workshop/workshop-machine.ts';
export {
  FilePlan,
  type FilePlanEntry,
  WorkshopPlan,
  type WorkshopSubtask,
  type WorkshopTask,
} from './workshop/workshop-plan.ts';
export {
  type RoundEntry,
  type RoundSignals,
  type WorkshopRoundInput,
  workshopRound,
} from './workshop/workshop-round.ts';
export { type WorkshopSectionOptions, workshopSection } from './workshop/workshop-section.ts';
export {
  WORKSHOP_SIGNAL_NAMES,
  WORKSHOP_SIGNALS,
  type WorkshopSignal,
  type WorkshopSignalName,
} from './workshop/workshop-signals.ts';
export {
  type RedoSnapshot,
  type TranscriptEntry,
  type WorkshopArtifact,
  WorkshopState,
} from './workshop/workshop-state.ts';
export { type WriteArtifactInput, writeArtifact } from './workshop/write-artifact.ts';
