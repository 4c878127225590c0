import type { AnyTool } from '@plankit/core';

// Each AI SDK tool toAISDKTools built, with the plankit tool behind it, so the step helpers
// read a tool's traits from the record the app passes the SDK rather than from its name.
const built = new WeakMap<object, AnyTool>();
// The names under which planning tools (a `plan` trait) were built: `ai` 7's `toolsContext`
// is keyed by tool name only. As many as there are distinct planning tool names.
const planningNames = new Set<string>();

/** Records that `aiTool` runs `tool`. */
export function rememberPlankitTool(aiTool: object, tool: AnyTool): void {
  built.set(aiTool, tool);
  if (tool.traits?.plan !== undefined) planningNames.add(tool.name);
}

/** Whether `toAISDKTools` built a planning tool (one with a `plan` trait) under `name`. */
export function isPlanningToolName(name: string): boolean {
  return planningNames.has(name);
}

/** The plankit tool behind an AI SDK tool built by `toAISDKTools`, else `undefined`. */
export function plankitToolOf(aiTool: unknown): AnyTool | undefined {
  return typeof aiTool === 'object' && aiTool !== null ? built.get(aiTool) : undefined;
}
