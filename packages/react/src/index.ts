/**
 * A live plan checklist for React chat UIs: `usePlan` reads the plan the server streams as
 * `data-plan` parts in `useChat` messages, `<PlanChecklist>` renders it as an accessible list,
 * and `@plankit/react/styles.css` is its optional default stylesheet.
 *
 * @packageDocumentation
 * @module @plankit/react
 */

export { goalFromView } from './goal-from-view.ts';
export {
  latestPlan,
  PLAN_PART_TYPE,
  type PlanMessage,
  type PlanMessagePart,
  type PlanReading,
} from './latest-plan.ts';
export {
  PlanChecklist,
  type PlanChecklistProps,
} from './plan-checklist.tsx';
export type {
  PlanChecklistClassNames,
  PlanChecklistPart,
} from './plan-checklist-class-names.ts';
export type { PlanChecklistGoal } from './plan-checklist-goal.ts';
export {
  defaultPlanChecklistLabels,
  type PlanChecklistLabels,
} from './plan-checklist-labels.ts';
export type { PlanPartWarning } from './plan-part-warning.ts';
export { type UsePlanOptions, usePlan } from './use-plan.ts';
