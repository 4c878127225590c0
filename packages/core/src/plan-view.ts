/**
 * The plan as a chat UI shows it: {@link planView} builds a serialisable, frozen view of a
 * session's plan (steps, statuses, dependencies, owners, the newest history revision, and the
 * fields its extensions add, such as a goal) and
 * {@link parsePlanView} reads one back from untrusted data. Free of zod and the session's
 * reducers, so a browser bundle can import it.
 *
 * @packageDocumentation
 * @module @plankit/core/plan-view
 */

export {
  MAX_PLAN_VIEW_FIELD_DEPTH,
  MAX_PLAN_VIEW_FIELDS,
  MAX_PLAN_VIEW_STEPS,
  type PlanViewProblem,
  type PlanViewProblemCode,
  parsePlanView,
} from './view/parse-plan-view.ts';
export {
  type PlanChannels,
  type PlanView,
  type PlanViewCounts,
  type PlanViewOptions,
  type PlanViewRevision,
  type PlanViewStep,
  planView,
} from './view/plan-view.ts';
export {
  type PlanViewField,
  type PlanViewFieldValue,
  planViewFieldsOf,
} from './view/plan-view-field.ts';
