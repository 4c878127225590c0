/**
 * plankit tools for LangChain.js and LangGraph: structured tools returning `ToolMessage`s, with a
 * session per thread. Needs only `@langchain/core`; `planningMiddleware` for `createAgent` lives
 * in `@plankit/adapters/langgraph`.
 *
 * @packageDocumentation
 * @module @plankit/adapters/langchain
 */

export type { LangChainContext } from './langchain-context.ts';
export type { LangChainMessageShape } from './langchain-message-shape.ts';
export { langChainMessageShape } from './langchain-message-shape.ts';
export type { LangChainToolsOptions } from './to-langchain-tools.ts';
export { toLangChainTools } from './to-langchain-tools.ts';
