/**
 * The workflow event that holds the latest plan of a planning workflow: read it with
 * `DBOS.getEvent(workflowId, PLAN_EVENT_KEY)`. @public
 */
export const PLAN_EVENT_KEY: string = 'plankit:plan';

/**
 * The workflow stream that carries every version of the plan, in order: follow it with
 * `DBOS.readStream(workflowId, PLAN_STREAM_KEY)` (a UI, `withPlanUpdates`, the ACP adapter).
 * @public
 */
export const PLAN_STREAM_KEY: string = 'plankit:plan';

/** The `DBOS.send` topic that carries approval decisions to a waiting workflow. @public */
export const APPROVAL_TOPIC: string = 'plankit:approval';
