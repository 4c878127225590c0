/**
 * The attribute names plankit writes on spans. The `gen_ai.*` and `error.type` names are copied
 * from the OpenTelemetry semantic conventions (version {@link SEMCONV_VERSION}) rather than
 * imported, so the package loads nothing at run time beyond `@opentelemetry/api`. The
 * `plankit.*` names are plankit's own and stable: they are documented in docs/telemetry.md,
 * and names are added, never renamed.
 *
 * @packageDocumentation
 */

/** The semantic-conventions version the `gen_ai.*` names and values are copied from. */
export const SEMCONV_VERSION = '1.45.0';

/** The GenAI and general attribute names from the semantic conventions, as plankit writes them. */
export const GenAIAttributes: {
  readonly OPERATION_NAME: 'gen_ai.operation.name';
  readonly TOOL_NAME: 'gen_ai.tool.name';
  readonly TOOL_CALL_ID: 'gen_ai.tool.call.id';
  readonly TOOL_TYPE: 'gen_ai.tool.type';
  readonly TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments';
  readonly TOOL_CALL_RESULT: 'gen_ai.tool.call.result';
  readonly CONVERSATION_ID: 'gen_ai.conversation.id';
  readonly AGENT_NAME: 'gen_ai.agent.name';
  readonly ERROR_TYPE: 'error.type';
} = Object.freeze({
  OPERATION_NAME: 'gen_ai.operation.name',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  AGENT_NAME: 'gen_ai.agent.name',
  ERROR_TYPE: 'error.type',
});

/**
 * plankit's own attribute names: the plan after a change, the controller's transitions and
 * budget, and the session pool. Counts are written one attribute per status
 * (`plankit.plan.counts.done`).
 */
export const PlankitAttributes: {
  readonly PLAN_REVISION: 'plankit.plan.revision';
  readonly PLAN_STATUS: 'plankit.plan.status';
  readonly PLAN_OBJECTIVE: 'plankit.plan.objective';
  readonly PLAN_COUNTS_PREFIX: 'plankit.plan.counts.';
  readonly STEP_ID: 'plankit.step.id';
  readonly STEP_STATUS: 'plankit.step.status';
  readonly STEP_CHANGE: 'plankit.step.change';
  readonly TOOL_REFUSAL_MESSAGE: 'plankit.tool.refusal.message';
  readonly MACHINE: 'plankit.machine';
  readonly MACHINE_STATUS: 'plankit.machine.status';
  readonly TRANSITION_FROM: 'plankit.transition.from';
  readonly TRANSITION_TO: 'plankit.transition.to';
  readonly TRANSITION_EVENT: 'plankit.transition.event';
  readonly TRANSITION_KIND: 'plankit.transition.kind';
  readonly TRANSITION_CONFIDENCE: 'plankit.transition.confidence';
  readonly APPROVAL_WAITING: 'plankit.approval.waiting';
  readonly BUDGET_PREFIX: 'plankit.budget.';
  readonly BUDGET_CAP: 'plankit.budget.cap';
  readonly POOL_LIVE: 'plankit.pool.live';
  readonly POOL_REASON: 'plankit.pool.reason';
  readonly POOL_WAITING: 'plankit.pool.waiting';
  readonly SESSION_ID: 'plankit.session.id';
} = Object.freeze({
  PLAN_REVISION: 'plankit.plan.revision',
  PLAN_STATUS: 'plankit.plan.status',
  PLAN_OBJECTIVE: 'plankit.plan.objective',
  PLAN_COUNTS_PREFIX: 'plankit.plan.counts.',
  STEP_ID: 'plankit.step.id',
  STEP_STATUS: 'plankit.step.status',
  STEP_CHANGE: 'plankit.step.change',
  TOOL_REFUSAL_MESSAGE: 'plankit.tool.refusal.message',
  MACHINE: 'plankit.machine',
  MACHINE_STATUS: 'plankit.machine.status',
  TRANSITION_FROM: 'plankit.transition.from',
  TRANSITION_TO: 'plankit.transition.to',
  TRANSITION_EVENT: 'plankit.transition.event',
  TRANSITION_KIND: 'plankit.transition.kind',
  TRANSITION_CONFIDENCE: 'plankit.transition.confidence',
  APPROVAL_WAITING: 'plankit.approval.waiting',
  BUDGET_PREFIX: 'plankit.budget.',
  BUDGET_CAP: 'plankit.budget.cap',
  POOL_LIVE: 'plankit.pool.live',
  POOL_REASON: 'plankit.pool.reason',
  POOL_WAITING: 'plankit.pool.waiting',
  SESSION_ID: 'plankit.session.id',
});
