import { Plan } from '@plankit/core';
import { deepFreeze, isRecord } from '@plankit/core/internal-unstable';
import { PlanRevision } from '@plankit/core/plan-model';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';

/**
 * The state {@link planningMiddleware} adds to an agent, as `agent.graph.getState(config).values`
 * and `agent.invoke(...)` hold it beside `messages`: the thread's plan, or `null` before the
 * first setup and after a clear.
 *
 * @public
 */
export interface PlanningState {
  /** The `plan` channel. */
  readonly plan: Plan | null;
}

/**
 * The state {@link planningMiddleware} adds with the `history()` extension: the plan and its revisions.
 *
 * @public
 */
export interface PlanningHistoryState extends PlanningState {
  /** The `planHistory` channel: each change to the plan (who, why, a diff), oldest first. */
  readonly planHistory: readonly PlanRevision[];
}

const Revisions = z.array(PlanRevision);

const refused = (message: string, field: string): AdapterError =>
  new AdapterError('state_invalid', `readPlanState: ${message}`, { field });

/**
 * Reads the planning channels out of a LangGraph state, typed: `getState(config).values` is
 * `any` in LangGraph's types. A channel the state lacks reads as its default (`plan: null`,
 * `planHistory: []`): a thread with no checkpoint yet, or an agent without the `history()` extension.
 * Each value present is checked against its channel's schema (`Plan`, `PlanRevision[]`).
 * Pure; the result is frozen.
 *
 * @example
 * ```ts
 * const { plan, planHistory } = readPlanState((await agent.graph.getState(config)).values);
 * plan?.steps.map((step) => step.title);
 * planHistory.map(renderPlanRevision);
 * ```
 * @param values - the state's values (`getState(config).values`, or what `invoke` returns)
 * @returns the plan (or `null`) and its revisions (empty without the `planHistory` channel)
 * @throws AdapterError `state_invalid` when `values` is not an object, or a channel holds
 *   what its schema refuses: values of a graph without {@link planningMiddleware}'s channels
 * @public
 */
export function readPlanState(values: unknown): PlanningHistoryState {
  if (!isRecord(values))
    throw refused(
      'values must be the state object of a graph (getState(config).values).',
      'values',
    );
  const { plan, planHistory } = values as { plan?: unknown; planHistory?: unknown };
  let readPlan: Plan | null = null;
  if (plan !== undefined && plan !== null) {
    const parsed = Plan.safeParse(plan);
    if (!parsed.success)
      throw refused(`plan is not a plan: ${parsed.error.issues[0]?.message}`, 'plan');
    readPlan = parsed.data;
  }
  let readHistory: readonly PlanRevision[] = [];
  if (planHistory !== undefined && planHistory !== null) {
    const parsed = Revisions.safeParse(planHistory);
    if (!parsed.success)
      throw refused(
        `planHistory is not a list of plan revisions: ${parsed.error.issues[0]?.message}`,
        'planHistory',
      );
    readHistory = parsed.data;
  }
  // The parsed values are fresh copies: freezing them touches nothing the graph holds.
  return deepFreeze({ plan: readPlan, planHistory: readHistory });
}
