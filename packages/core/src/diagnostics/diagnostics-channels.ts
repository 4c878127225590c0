/**
 * The `node:diagnostics_channel` channel a planning tool call publishes on: a
 * {@link ToolCallStarted} before the schema runs and a {@link ToolCallEnded} with its outcome.
 *
 * @public
 */
export const TOOL_CALL_CHANNEL = 'plankit:tool-call';

/** The channel a session publishes {@link PlanChanged} on when its plan changes. @public */
export const PLAN_CHANNEL = 'plankit:plan';

/** The channel `@plankit/controller` publishes {@link MachineTransitioned} on. @public */
export const TRANSITION_CHANNEL = 'plankit:transition';

/**
 * The channel `@plankit/adapters`' session pool publishes {@link PoolLoaded}, {@link PoolEvicted}
 * and {@link PoolFull} on.
 *
 * @public
 */
export const POOL_CHANNEL = 'plankit:pool';

/** Every plankit channel name, in the order the guide lists them. @public */
export const DIAGNOSTICS_CHANNELS: readonly [
  typeof TOOL_CALL_CHANNEL,
  typeof PLAN_CHANNEL,
  typeof TRANSITION_CHANNEL,
  typeof POOL_CHANNEL,
] = Object.freeze([TOOL_CALL_CHANNEL, PLAN_CHANNEL, TRANSITION_CHANNEL, POOL_CHANNEL] as const);

/** The name of a plankit channel. @public */
export type DiagnosticsChannelName = (typeof DIAGNOSTICS_CHANNELS)[number];
