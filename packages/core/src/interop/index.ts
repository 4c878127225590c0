/**
 * Converters between plankit's plan and the plan formats of other agents: LangChain's
 * `todos`, Codex's `update_plan`, the Claude Agent SDK's tasks, Agent Client Protocol plan
 * updates and pydantic-ai-harness's `write_plan`. "To" converters are pure and exact where
 * the format can say it; "from" converters turn a foreign whole-list write into planning tool
 * calls that keep step ids stable, run with `applyPlanningCalls`.
 *
 * @packageDocumentation
 * @module @plankit/core/interop
 */

export type { ACPPlanEntry, ACPPlanUpdate } from './acp-plan.ts';
export { fromACPPlan, toACPPlan } from './acp-plan.ts';
export type {
  ApplyPlanningCallsOptions,
  PlanningCallError,
  PlanningCallTools,
} from './apply-planning-calls.ts';
export { applyPlanningCalls } from './apply-planning-calls.ts';
export type { ClaudeTask, ClaudeTaskList } from './claude-tasks.ts';
export { fromClaudeTasks, toClaudeTasks } from './claude-tasks.ts';
export type { CodexPlanArgs, CodexPlanItem, CodexPlanOptions } from './codex-plan.ts';
export { fromCodexPlan, toCodexPlan } from './codex-plan.ts';
export type { InteropOptions } from './interop-options.ts';
export type { LangChainTodo, LangChainTodos } from './langchain-todos.ts';
export { fromLangChainTodos, toLangChainTodos } from './langchain-todos.ts';
export type { PlanningCall, PlanWrite } from './planning-call.ts';
export type {
  PydanticAIPlan,
  PydanticAIPlanItem,
  PydanticAIPlanStatus,
} from './pydantic-ai-plan.ts';
export { fromPydanticAIPlan, toPydanticAIPlan } from './pydantic-ai-plan.ts';
export { MAX_INTEROP_ITEMS } from './read-foreign-list.ts';
export type { TodoStatus } from './todo-status.ts';
