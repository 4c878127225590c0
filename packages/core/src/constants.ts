/**
 * The limits and value lists of `@plankit/core`: the longest texts and the highest step
 * number the planning tools accept, the statuses, the in-progress modes, the most issues a
 * refusal lists, and the snapshot format's version.
 *
 * @packageDocumentation
 * @module @plankit/core/constants
 */

export { IN_PROGRESS_MODES, inProgressRule } from './planning/in-progress-rule.ts';
export { PLAN_STATUSES, STEP_STATUSES } from './planning/plan.ts';
export { MAX_STEP_NUMBER } from './planning/step-id.ts';
export { TEXT_MODES } from './planning/text-mode.ts';
export type { PlanningLimits } from './planning/text-rules.ts';
export { PLANNING_LIMITS } from './planning/text-rules.ts';
export { SNAPSHOT_VERSION } from './snapshot-to-json.ts';
export { MAX_TOOL_ISSUES } from './tool-validation-error.ts';
