/**
 * What plankit publishes on `node:diagnostics_channel`, for tracing and APM: the channel names
 * (`plankit:tool-call`, `plankit:plan`, `plankit:transition`, `plankit:pool`) and the payload
 * of each, discriminated by `type`. Subscribe with `node:diagnostics_channel` itself;
 * `@plankit/otel` turns the events into OpenTelemetry spans. Publishing costs nothing while
 * nobody subscribes, and where the module does not exist (a browser) nothing is published.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { TOOL_CALL_CHANNEL, type ToolCallEvent } from '@plankit/core/diagnostics';
 *
 * subscribe(TOOL_CALL_CHANNEL, (message) => {
 *   const event = message as ToolCallEvent;
 *   if (event.type === 'tool-call-end' && !event.ok) console.log(event.toolName, event.code);
 * });
 * ```
 * @packageDocumentation
 * @module @plankit/core/diagnostics
 */

export {
  type DiagnosticsChannel,
  diagnosticsChannel,
  publishDiagnostics,
} from './diagnostics-channel.ts';
export {
  DIAGNOSTICS_CHANNELS,
  type DiagnosticsChannelName,
  PLAN_CHANNEL,
  POOL_CHANNEL,
  TOOL_CALL_CHANNEL,
  TRANSITION_CHANNEL,
} from './diagnostics-channels.ts';
export type {
  DiagnosticsEvent,
  MachineTransitioned,
  PlanChanged,
  PlanStepChange,
  PlanStepCounts,
  PoolEvent,
  PoolEvicted,
  PoolFull,
  PoolLoaded,
  ToolCallEnded,
  ToolCallEvent,
  ToolCallStarted,
  TransitionBudget,
} from './diagnostics-event.ts';
