/**
 * plankit tools for the OpenAI Agents SDK (`@openai/agents` 0.20): function tools built with
 * the SDK's `tool()`, with strict parameters, a session per conversation from the run's
 * `RunContext`, calls applied in the model's order, refusals as tool errors the model reads, and
 * approvals mapped from plankit's interaction policy; `runWithGoal` runs the agent again while a
 * goal's decision says continue.
 *
 * @packageDocumentation
 * @module @plankit/adapters/openai-agents
 */

export { OpenAIAgentsToolError } from './openai-agents-tool-error.ts';
export { planningApprovalCheckpoint } from './planning-approval-checkpoint.ts';
export {
  type RunGoalDecision,
  type RunWithGoalOptions,
  type RunWithGoalResult,
  runWithGoal,
} from './run-with-goal.ts';
export type {
  OpenAIAgentsApprovalRequest,
  OpenAIAgentsToolsOptions,
} from './to-openai-agents-tools.ts';
export { toOpenAIAgentsTools } from './to-openai-agents-tools.ts';
