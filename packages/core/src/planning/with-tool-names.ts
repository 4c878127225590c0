import type { AnyTool } from '../define-tool.ts';

/**
 * A frozen copy of `tools` that also holds each tool under its name, as a non-enumerable,
 * read-only property: hosts iterate the array in order, code reads `tools.planning_mark_step`.
 * Non-enumerable, so spreading, `Object.keys` and JSON see only the array. For the planning
 * tools, whose names are unique and never an array member's name. @internal
 */
export function withToolNames(tools: readonly AnyTool[]): readonly AnyTool[] {
  const named = [...tools];
  for (const tool of named) Object.defineProperty(named, tool.name, { value: tool });
  return Object.freeze(named);
}
