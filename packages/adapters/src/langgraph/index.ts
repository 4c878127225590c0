/**
 * plankit planning for LangChain's `createAgent`: `planningMiddleware` keeps the plan in a graph
 * state channel, so every checkpointer persists it and `getState`, time travel and forks carry
 * it; parallel planning calls of one step merge in model order through plankit's reducers.
 * Loads `langchain` and `@langchain/langgraph`; plain LangChain tools live in
 * `@plankit/adapters/langchain`, which needs only `@langchain/core`.
 *
 * @packageDocumentation
 * @module @plankit/adapters/langgraph
 */

export type {
  PlanChannelOptions,
  PlanEdit,
  PlanEditErrorCode,
  PlanEditOp,
} from './plan-edit.ts';
export { applyPlanEdit, PlanEditError, reducePlan } from './plan-edit.ts';
export type { PlanHistoryUpdate } from './plan-history-channel.ts';
export { planHistoryChannel, reducePlanHistory } from './plan-history-channel.ts';
export type {
  GoalGate,
  PlanningHistoryMiddleware,
  PlanningHistoryStateSchema,
  PlanningMiddleware,
  PlanningMiddlewareOptions,
  PlanningMiddlewareSection,
  PlanningStateSchema,
  PlanUpdate,
} from './planning-middleware.ts';
export { planChannel, planningMiddleware } from './planning-middleware.ts';
export type { PlanningHistoryState, PlanningState } from './read-plan-state.ts';
export { readPlanState } from './read-plan-state.ts';
