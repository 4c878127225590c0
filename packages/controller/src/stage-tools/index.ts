/**
 * Stage tools: typed tools per stage, declared with what they need and produce, checked for
 * order, and run by an executor that validates input and output, enforces the interaction
 * policy and memoises results. Its own entry, so an app that drives the engine with its own
 * tools does not bundle it; errors are the root's `ControllerError`.
 *
 * @packageDocumentation
 * @module @plankit/controller/stage-tools
 */

export {
  checkToolOrder,
  type MissingProducer,
  type ToolOrderOptions,
  type ToolOrderReport,
} from './check-tool-order.ts';
export {
  createToolExecutor,
  type StageToolResult,
  type ToolExecutor,
  type ToolExecutorOptions,
  type ToolRunOptions,
} from './create-tool-executor.ts';
export {
  type AnyStageTool,
  defineStageTool,
  type StageTool,
  type StageToolContext,
  type StageToolDefinition,
  type StageToolOutput,
} from './define-stage-tool.ts';
