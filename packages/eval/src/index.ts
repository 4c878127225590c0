/**
 * Does planning help this agent? A/B trials of plankit planning set-ups on your own tasks and
 * model: arms, tasks and checkers, a budget-capped resumable runner, and an honest report
 * (Wilson intervals; for each pair one rule gives the Newcombe interval, the p-value and the
 * verdict, corrected for multiple pairs).
 *
 * @packageDocumentation
 * @module @plankit/eval
 */

export type {
  EvalArm,
  EvalBudget,
  EvalConfig,
  EvalTask,
  GoalArm,
  GoalArmBudget,
  GoalArmVerifier,
  PlanningArm,
  ReminderCadence,
  TaskToolContext,
} from './config/define-eval.ts';
export { defineEval, REMINDER_CADENCES } from './config/define-eval.ts';
export { MAX_TRIALS } from './config/eval-config-schema.ts';
export type {
  CheckFunction,
  CheckInput,
  CheckVerdict,
  JudgeChecker,
  JudgeRequest,
  LlmJudgeOptions,
  StoredVerdict,
  TaskChecker,
} from './config/task-checker.ts';
export { JUDGE_ANSWER_LIMIT, llmJudge } from './config/task-checker.ts';
export type { AISdkHostOptions } from './hosts/ai-sdk-host.ts';
export { aiSdkHost } from './hosts/ai-sdk-host.ts';
export type {
  AnthropicClientLike,
  AnthropicHostOptions,
  AnthropicMessageLike,
  AnthropicRequestLike,
} from './hosts/anthropic-host.ts';
export { anthropicHost } from './hosts/anthropic-host.ts';
export type {
  CallGuard,
  CallUsage,
  EvalHost,
  HostTrialInput,
  HostTrialOutput,
  ModelCallResult,
  TranscriptEntry,
  TrialStop,
} from './hosts/eval-host.ts';
export type {
  OpenAIChatClientLike,
  OpenAIChatCompletionLike,
  OpenAIChatHostOptions,
  OpenAIChatRequestLike,
} from './hosts/openai-chat-host.ts';
export { openAIChatHost } from './hosts/openai-chat-host.ts';
export type { PlankitEvalErrorCode } from './plankit-eval-error.ts';
export { PlankitEvalError } from './plankit-eval-error.ts';
export type {
  ArmSummary,
  EvalReport,
  JudgeVerdictRow,
  PairComparison,
} from './report/build-report.ts';
export { buildReport, holmAdjust, SIGNIFICANCE_LEVEL } from './report/build-report.ts';
export type {
  GoalComparison,
  GoalOutcomeCounts,
  GoalSummary,
} from './report/goal-summary.ts';
export { renderHtml } from './report/render-html.ts';
export { renderMarkdown } from './report/render-markdown.ts';
export type { ReportFiles } from './report/write-reports.ts';
export { writeReports } from './report/write-reports.ts';
export type { EvalProgress, EvalRun, RunEvalOptions } from './runner/run-eval.ts';
export { runEval } from './runner/run-eval.ts';
export type { RunOutcome } from './runner/run-outcome.ts';
export { deriveSeed, seededRandom, seededShuffle } from './runner/seeded-random.ts';
export type { TrialGoal, TrialGoalStatus } from './runner/trial-goal.ts';
export type { PlanActivity, TrialRecord } from './runner/trial-record.ts';
export type {
  CompareRatesOptions,
  RateComparison,
  RateCount,
} from './stats/compare-rates.ts';
export { compareRates } from './stats/compare-rates.ts';
export type { SampleSummary } from './stats/describe-sample.ts';
export { describeSample } from './stats/describe-sample.ts';
export type { DifferenceIntervalOptions } from './stats/difference-interval.ts';
export { differenceInterval } from './stats/difference-interval.ts';
export { fisherExactTest } from './stats/fisher-exact-test.ts';
export type { ProportionInterval } from './stats/wilson-interval.ts';
export { wilsonInterval, wilsonIntervalCorrected, Z_95 } from './stats/wilson-interval.ts';
