/**
 * Goals: an objective the agent keeps working toward, bounded by a budget (tokens, USD, turns,
 * work time), judged by a verifier the host chooses, and stopped by the re-plan guard when the
 * agent only re-plans. `decideGoal` is the pure continuation decision after each turn; the goal
 * is a session slice (`GoalState`) set, paused, resumed and cleared by typed commands
 * (`SetGoal`, `PauseGoal`, `ResumeGoal`, `ClearGoal`) that the `goals()` extension declares,
 * so every store logs and replays them. Its own entry, so an app without
 * goals does not bundle it; errors are the root's `ControllerError`.
 *
 * @packageDocumentation
 * @module @plankit/controller/goal
 */

export {
  applyGoalCommand,
  type ClearGoalCommand,
  type GoalCommand,
  type PauseGoalCommand,
  type ResumeGoalCommand,
} from './apply-goal-command.ts';
export {
  createGoal,
  DEFAULT_GOAL_BUDGET,
  DEFAULT_REPLAN_GUARD,
  type GoalOptions,
} from './create-goal.ts';
export {
  type DecideGoalInput,
  decideGoal,
  type GoalAsk,
  type GoalContinue,
  type GoalDecision,
  type GoalStepResult,
  type GoalStop,
  type GoalUsage,
  type GoalVerdict,
  renderGoalUsage,
} from './decide-goal.ts';
export {
  ClearGoal,
  PauseGoal,
  ResumeGoal,
  SetGoal,
} from './goal-commands.ts';
export { type GoalOutcome, type GoalStage, goalMachine } from './goal-machine.ts';
export {
  GOAL_STATUSES,
  type Goal,
  type GoalBudget,
  type GoalCounters,
  GoalState,
  type GoalStatus,
  type GoalVerdictKind,
  type GoalVerdictRecord,
  type ReplanGuardOptions,
  type ReplanGuardState,
} from './goal-state.ts';
export {
  allStepsDone,
  type GoalCheckAnswer,
  type GoalCheckInput,
  type GoalJudgeRequest,
  type GoalVerifier,
  type JudgeVerifierOptions,
  judgeVerifier,
  parseGoalVerdict,
  verifyWith,
} from './goal-verifier.ts';
export { type GoalView, goalView } from './goal-view.ts';
export { type GoalsExtension, goals } from './goals.ts';
export { registerGoalReducers } from './register-goal-reducers.ts';
export { renderGoalLine } from './render-goal-line.ts';
export { observePlan, type ReplanGuardStep } from './replan-guard.ts';
