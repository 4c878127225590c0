import type { Plan } from '@plankit/core';
import { type ACPPlanEntry, type ACPPlanUpdate, toACPPlan } from '@plankit/core/interop';

/** The prefix an ACP plan entry's content gets for a step waiting on something. @public */
export const ACP_BLOCKED_PREFIX = '[blocked] ';

/** The prefix an ACP plan entry's content gets for an unfinished step of an abandoned plan. @public */
export const ACP_ABANDONED_PREFIX = '[abandoned] ';

/**
 * The plan as an editor shows it in its ACP plan panel: `toACPPlan` from
 * `@plankit/core/interop` (entries in plan order, `content` the step's title, `priority`
 * `medium`), plus a rule for what ACP's three statuses cannot say. A `blocked` step is
 * `pending` with its content prefixed `[blocked] `; when the plan is abandoned, its steps stay
 * listed (a panel that empties would read as "nothing to do"), each unfinished one `pending`
 * with `[abandoned] `. The prefixes are for people: `fromACPPlan` matches entries by content,
 * so feed it `toACPPlan`'s entries, not these.
 *
 * @param plan - the session's plan, `selectLatest(session, Plan)`; `undefined` for none
 * @returns the `update` of a `session/update` notification, `sessionUpdate: 'plan'`; no
 *   entries when there is no plan
 * @public
 */
export function toACPPlanUpdate(plan: Plan | undefined): ACPPlanUpdate {
  if (plan === undefined) return toACPPlan(plan);
  const abandoned = plan.status === 'abandoned';
  // toACPPlan lists no steps for an abandoned plan; the panel keeps them, marked.
  const base = toACPPlan(abandoned ? { ...plan, status: 'active' } : plan);
  const entries = base.entries.map((entry, index): ACPPlanEntry => {
    const step = plan.steps[index];
    if (step === undefined || step.status === 'done') return entry;
    const prefix = abandoned
      ? ACP_ABANDONED_PREFIX
      : step.status === 'blocked'
        ? ACP_BLOCKED_PREFIX
        : '';
    return prefix === ''
      ? entry
      : { ...entry, content: `${prefix}${entry.content}`, status: 'pending' };
  });
  return { sessionUpdate: 'plan', entries };
}
