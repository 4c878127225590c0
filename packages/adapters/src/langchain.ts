/**
 * plankit tools for LangChain.js and LangGraph: structured tools returning `ToolMessage`s, with a
 * session per thread; and `planningMiddleware` for `createAgent`, keeping the plan in a graph
 * state channel so checkpoints, `getState`, time travel and forks carry it.
 *
 * @packageDocumentation
 * @module @plankit/adapters/langchain
 */

export type { LangChainContext } from './langchain/langchain-context.ts';
export type { PlanEdit, PlanEditErrorCode, PlanEditOp } from './langchain/plan-edit.ts';
export { applyPlanEdit, PlanEditError, reducePlan } from './langchain/plan-edit.ts';
export type {
  PlanningMiddleware,
  PlanningMiddlewareOptions,
  PlanningMiddlewareSection,
  PlanningStateSchema,
  PlanUpdate,
} from './langchain/planning-middleware.ts';
export { planChannel, planningMiddleware } from './langchain/planning-middleware.ts';
export type { LangChainToolsOptions } from './langchain/to-langchain-tools.ts';
export { toLangChainTools } from './langchain/to-langchain-tools.ts';
