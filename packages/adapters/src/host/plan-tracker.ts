import { Plan, type Session, selectLatest } from '@plankit/core';
import { deepEqual } from '@plankit/core/internal-unstable';
import { PlanRevision } from '@plankit/core/plan-model';

/** What a commit changed of what a plan reader shows. */
export interface PlanChange {
  /** The newest plan is another value. */
  readonly plan: boolean;
  /** The newest plan history revision is another value. */
  readonly revision: boolean;
}

/** Follows one conversation's plan across its live copies; see {@link createPlanTracker}. */
export interface PlanTracker {
  /** Takes what `session` holds now as seen, without reporting a change. */
  readonly seen: (session: Session | undefined) => void;
  /** What changed since the last session seen; `session` is then seen. */
  readonly change: (session: Session) => PlanChange;
}

/**
 * Tells a plan reader (the MCP plan resource, `withPlanUpdates`) whether a commit changed the
 * plan. Plans and revisions are frozen values replaced on change, so within one live copy
 * identity decides; a copy loaded again after an eviction holds equal values under new
 * identities, so across copies the values are compared: a reload is not a change, and a read
 * on a reloaded conversation sends nothing.
 */
export function createPlanTracker(): PlanTracker {
  let copy: Session | undefined;
  let plan: unknown;
  let revision: unknown;
  const seen = (session: Session | undefined): void => {
    copy = session;
    plan = session === undefined ? undefined : selectLatest(session, Plan);
    revision = session === undefined ? undefined : selectLatest(session, PlanRevision);
  };
  const change = (session: Session): PlanChange => {
    const nextPlan = selectLatest(session, Plan);
    const nextRevision = selectLatest(session, PlanRevision);
    const sameCopy = session === copy;
    const same = (a: unknown, b: unknown): boolean => a === b || (!sameCopy && deepEqual(a, b));
    const changed = { plan: !same(nextPlan, plan), revision: !same(nextRevision, revision) };
    copy = session;
    plan = nextPlan;
    revision = nextRevision;
    return changed;
  };
  return { seen, change };
}
