/**
 * plankit tools for the Vercel AI SDK (`ai` 6 and 7): tools whose `execute` runs `invokeTool`
 * in the model's order and throws refusals as {@link AISDKToolError} tool errors, on one
 * session or the session of each call's conversation; a `prepareStep` that puts the plan
 * reminder last and narrows the tools by the plan; `stopWhen` conditions for a finished plan
 * and for a goal that stopped;
 * the live plan as a `data-plan` part of a UI message stream, with its data-part schema.
 *
 * @packageDocumentation
 * @module @plankit/adapters/ai-sdk
 */

export type { AISDKContext } from './ai-sdk-context.ts';
export { AISDKToolError } from './ai-sdk-tool-error.ts';
export { type GoalStoppedOptions, goalStopped } from './goal-stopped.ts';
export type { PlanDataChunk, PlanDataTypes } from './plan-data-part.ts';
export { PlanViewSchema, planDataPartSchemas } from './plan-data-part.ts';
export type { PlanFinishedOptions, PlanFinishedStep } from './plan-finished.ts';
export { planFinished } from './plan-finished.ts';
export type {
  PlanReminderStepInput,
  PlanReminderStepOptions,
  PlanReminderStepResult,
} from './plan-reminder-step.ts';
export { planReminderStep } from './plan-reminder-step.ts';
export type { AISDKContexts } from './to-ai-sdk-context.ts';
export { toAISDKContext, toAISDKToolsContext } from './to-ai-sdk-context.ts';
export type {
  AISDKCallOptions,
  AISDKTool,
  AISDKToolOutput,
  AISDKToolsOptions,
} from './to-ai-sdk-tools.ts';
export { toAISDKTools } from './to-ai-sdk-tools.ts';
export type { PlanUpdatesOptions, PlanUpdatesWriter } from './with-plan-updates.ts';
export { PLAN_PART_ID, withPlanUpdates } from './with-plan-updates.ts';
