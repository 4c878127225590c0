import { type AnyTool, Plan, renderPlan, type ToolResult } from '@plankit/core';

/**
 * The text a model reads back from a tool call. Refusals read `Tool validation failed: ...`
 * (or `Tool '<name>' execution failed: ...`) in every host format. A tool that changes state
 * answers with its message (its value only echoes the call); a read-only tool (no
 * `resultType`) also shows what it read: a plan in plankit's text form, other values as JSON.
 *
 * @public
 */
export function formatToolContent(result: ToolResult<unknown>, tool?: AnyTool): string {
  if (!result.success || tool === undefined || tool.resultType !== null) return result.message;
  const value = result.value;
  if (value === null || value === undefined) return result.message;
  const plan = Plan.safeParse(value);
  const text = plan.success
    ? renderPlan(plan.data)
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);
  return `${result.message}\n\n${text}`;
}
