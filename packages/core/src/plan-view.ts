/**
 * The plan as a chat UI shows it: {@link planView} builds a serialisable, frozen view of a
 * session's plan (steps, statuses, dependencies, owners, the newest history revision) and
 * {@link parsePlanView} reads one back from untrusted data. Free of zod and the session's
 * reducers, so a browser bundle can import it.
 *
 * @packageDocumentation
 * @module @plankit/core/plan-view
 */

export {
  MAX_PLAN_VIEW_STEPS,
  type PlanViewProblem,
  type PlanViewProblemCode,
  parsePlanView,
} from './view/parse-plan-view.ts';
export {
  type PlanChannels,
  type PlanView,
  type PlanViewCounts,
  type PlanViewRevision,
  type PlanViewStep,
  planView,
} from './view/plan-view.ts';
