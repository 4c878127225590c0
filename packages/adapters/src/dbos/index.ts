/**
 * plankit inside DBOS workflows (`@dbos-inc/dbos-sdk` 5.x, on PostgreSQL): tool calls that
 * replay deterministically, the plan published as a workflow event and stream, and approvals
 * that wait with `DBOS.recv` without holding a process. See `docs/durable-agents.md`.
 *
 * @packageDocumentation
 * @module @plankit/adapters/dbos
 */

export type { ApprovalDecision } from './approval.ts';
export { sendApproval, waitForApproval } from './approval.ts';
export type { InvokeToolInWorkflowOptions } from './invoke-tool-in-workflow.ts';
export { invokeToolInWorkflow } from './invoke-tool-in-workflow.ts';
export { APPROVAL_TOPIC, PLAN_EVENT_KEY, PLAN_STREAM_KEY } from './plan-keys.ts';
