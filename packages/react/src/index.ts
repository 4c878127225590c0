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
export {
  defaultPlanChecklistLabels,
  type PlanChecklistLabels,
} from './plan-checklist-labels.ts';
export type { PlanPartWarning } from './plan-part-warning.ts';
export { type UsePlanOptions, usePlan } from './use-plan.ts';
