/**
 * plankit tools for the Vercel AI SDK (`ai` 6 and 7): tools whose `execute` runs `invokeTool`
 * in the model's order and throws refusals as {@link AISDKToolError} tool errors.
 *
 * @packageDocumentation
 * @module @plankit/adapters/ai-sdk
 */

export { AISDKToolError } from './ai-sdk/ai-sdk-tool-error.ts';
export type { AISDKToolOutput, AISDKToolsOptions } from './ai-sdk/to-ai-sdk-tools.ts';
export { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
