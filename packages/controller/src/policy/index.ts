/**
 * How the agent interacts and how sure it must be: the interaction policy (layers, question
 * limits, variants, approvals, brainstorming), the review of a plan's pattern, and confidence
 * scores with their thresholds. Its own entry, so the engine at the root does not bundle the
 * policy schemas; errors are the root's `ControllerError`.
 *
 * @packageDocumentation
 * @module @plankit/controller/policy
 */

// Confidence: one score from several, and the class it falls in.
export {
  type ConfidenceClass,
  type ConfidenceThresholds,
  classifyConfidence,
} from '../confidence/classify-confidence.ts';
export {
  type ConfidenceScores,
  type ConfidenceWeights,
  compositeConfidence,
} from '../confidence/composite-confidence.ts';
// Interaction policy: the sliders, their layers and the gates they drive.
export { type ApprovalCheckpoint, approvalRequired } from './approval-required.ts';
export { InteractionPolicy } from './interaction-policy.ts';
export { limitQuestions } from './limit-questions.ts';
// Patterns: which pattern a plan may use.
export { PatternSpec } from './pattern-spec.ts';
export { type PolicyLayers, resolvePolicy } from './resolve-policy.ts';
export { type PatternPolicy, type PatternReview, reviewPattern } from './review-pattern.ts';
export { type BrainstormContext, shouldBrainstorm } from './should-brainstorm.ts';
export { variantCount } from './variant-count.ts';
