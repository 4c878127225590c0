/**
 * OpenTelemetry spans for plankit, per the GenAI semantic conventions: one line of setup
 * (`instrumentPlankit()`) and every planning tool call, refusal, plan change and controller
 * stage shows in the traces you already read. See docs/telemetry.md.
 *
 * @packageDocumentation
 * @module @plankit/otel
 */

export {
  type InstrumentPlankitOptions,
  instrumentPlankit,
  type StopInstrumentation,
} from './instrument-plankit.ts';
export { type FinishedSpan, renderSpanTree } from './render-span-tree.ts';
export { GenAIAttributes, PlankitAttributes, SEMCONV_VERSION } from './semantic-conventions.ts';
