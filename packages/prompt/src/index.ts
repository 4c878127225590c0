/**
 * Prompt sections with deterministic, byte-stable markdown; the planning section with its
 * three strategies; plan reminders, compaction anchors and plan-keeping compaction; the strategic and tactical phase
 * sections; the interaction-policy directives.
 *
 * @packageDocumentation
 * @module @plankit/prompt
 */

export type { HmacCryptoKey, PlanAnchorKey } from './authenticated-plan-anchor.ts';
export {
  fromAuthenticatedPlanAnchor,
  MIN_ANCHOR_KEY_BYTES,
  toAuthenticatedPlanAnchor,
} from './authenticated-plan-anchor.ts';
export type { AnthropicMessageLike } from './compaction/compact-anthropic-messages.ts';
export { compactAnthropicMessages } from './compaction/compact-anthropic-messages.ts';
export type { ChatMessageLike } from './compaction/compact-chat-messages.ts';
export { compactChatMessages } from './compaction/compact-chat-messages.ts';
export type {
  CompactionOptions,
  CompactionPlanSource,
  CompactionResult,
  IgnoredAnchor,
  IgnoredAnchorReason,
  MessageShape,
} from './compaction/compact-with-plan.ts';
export {
  compactWithPlan,
  PLAN_STATE_HEADER,
  RECENT_CHANGES_HEADER,
  SUMMARY_HEADER,
} from './compaction/compact-with-plan.ts';
export type {
  InteractionPolicyInput,
  InteractionPolicyParams,
} from './interaction-policy-section.ts';
export { InteractionPolicySection } from './interaction-policy-section.ts';
export { isPlanReminder } from './is-plan-reminder.ts';
export type { MarkdownSectionOptions, SectionParams } from './markdown-section.ts';
export { MarkdownSection } from './markdown-section.ts';
export type { Phase, PhaseParams, PhaseSectionOptions, TodoRange } from './phase-section.ts';
export { PhaseSection } from './phase-section.ts';
export {
  AUTHENTICATED_PLAN_ANCHOR_VERSION,
  fromPlanAnchor,
  PLAN_ANCHOR_VERSION,
  toPlanAnchor,
} from './plan-anchor.ts';
export type { PlanAnchorCode } from './plan-anchor-error.ts';
export { PlanAnchorError } from './plan-anchor-error.ts';
export { PLANNING_STRATEGIES, PlanningStrategy } from './planning-strategy.ts';
export type { PlanningToolsSectionOptions } from './planning-tools-section.ts';
export { PlanningToolsSection } from './planning-tools-section.ts';
export type { PromptOptions, PromptParams, RenderedPrompt } from './prompt.ts';
export { Prompt } from './prompt.ts';
export type { PromptRenderCode } from './prompt-render-error.ts';
export { PromptRenderError } from './prompt-render-error.ts';
export type { PromptSection, SectionRenderOptions } from './prompt-section.ts';
export type { PlanReminderOptions } from './render-plan-reminder.ts';
export { renderPlanReminder } from './render-plan-reminder.ts';
export type { TemplateValue } from './render-template.ts';
