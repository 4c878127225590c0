/**
 * plankit tools for LangChain.js: structured tools returning `ToolMessage` content.
 *
 * @packageDocumentation
 * @module @plankit/adapters/langchain
 */

export type { LangChainContext } from './langchain/langchain-context.ts';
export type { LangChainToolsOptions } from './langchain/to-langchain-tools.ts';
export { toLangChainTools } from './langchain/to-langchain-tools.ts';
