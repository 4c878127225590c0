/**
 * plankit tools for the Vercel AI SDK: `tool()` objects whose `execute` runs `invokeTool`.
 *
 * @packageDocumentation
 * @module @plankit/adapters/ai-sdk
 */

export type { AISDKToolOutput, AISDKToolsOptions } from './ai-sdk/to-ai-sdk-tools.ts';
export { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
