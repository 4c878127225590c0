import type { AnyTool } from '@plankit/core';

/** The ACP tool kinds plankit's tools are shown with. @public */
export type ACPPlanningToolKind = 'read' | 'think' | 'other';

/**
 * The `kind` an ACP client shows a tool call with: `read` for a tool that only reads (its
 * `readOnly` trait, or no `resultType`: core's mark of a reading tool), `think` for one that
 * changes the plan (ACP's kind for planning), `other` for a name no tool has.
 *
 * @param tool - the tool the call names, `undefined` when none does
 * @returns the ACP `ToolKind`
 * @public
 */
export function acpToolKind(tool: AnyTool | undefined): ACPPlanningToolKind {
  if (tool === undefined) return 'other';
  const readOnly = tool.traits?.readOnly ?? tool.resultType === null;
  return readOnly ? 'read' : 'think';
}
