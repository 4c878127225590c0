import { Plan, type Session, selectLatest } from '@plankit/core';
import { deepEqual } from '@plankit/core/internal-unstable';
import { PlanRevision } from '@plankit/core/plan-model';
import { planViewFieldsOf } from '@plankit/core/plan-view';

/** What a commit changed of what a plan reader shows. */
export interface PlanChange {
  /** The newest plan is another value. */
  readonly plan: boolean;
  /** The newest plan history revision is another value. */
  readonly revision: boolean;
  /** A field the session's extensions add to the plan view (a goal) is another value. */
  readonly fields: boolean;
}

/** Follows one conversation's plan across its live copies; see {@link createPlanTracker}. */
export interface PlanTracker {
  /** Takes what `session` holds now as seen, without reporting a change. */
  readonly seen: (session: Session | undefined) => void;
  /** What changed since the last session seen; `session` is then seen. */
  readonly change: (session: Session) => PlanChange;
}

/** What the session's extensions add to the plan view, by field: what `planView` would show. */
function fieldValues(session: Session): readonly unknown[] {
  const fields = planViewFieldsOf(session);
  if (fields.length === 0) return NO_FIELDS;
  const slices = session.snapshot().slices;
  return fields.map((field) => field.read(slices));
}

const NO_FIELDS: readonly unknown[] = Object.freeze([]);

/**
 * Tells a plan reader (the MCP plan resource, `withPlanUpdates`) whether a commit changed the
 * plan, or a field the extensions add to its view (a goal's status or budget used). Plans and revisions are frozen values replaced on change, so within one live copy
 * identity decides; a copy loaded again after an eviction holds equal values under new
 * identities, so across copies the values are compared: a reload is not a change, and a read
 * on a reloaded conversation sends nothing.
 */
export function createPlanTracker(): PlanTracker {
  let copy: Session | undefined;
  let plan: unknown;
  let revision: unknown;
  let fields: readonly unknown[] = NO_FIELDS;
  const seen = (session: Session | undefined): void => {
    copy = session;
    plan = session === undefined ? undefined : selectLatest(session, Plan);
    revision = session === undefined ? undefined : selectLatest(session, PlanRevision);
    fields = plan === undefined || session === undefined ? NO_FIELDS : fieldValues(session);
  };
  const change = (session: Session): PlanChange => {
    const nextPlan = selectLatest(session, Plan);
    const nextRevision = selectLatest(session, PlanRevision);
    const sameCopy = session === copy;
    const same = (a: unknown, b: unknown): boolean => a === b || (!sameCopy && deepEqual(a, b));
    // Without a plan there is no view to carry the fields.
    const nextFields = nextPlan === undefined ? NO_FIELDS : fieldValues(session);
    // A field's value is frozen and replaced on change (a goal's view is built once per goal).
    const changed = {
      plan: !same(nextPlan, plan),
      revision: !same(nextRevision, revision),
      fields:
        nextFields.length !== fields.length ||
        nextFields.some((value, index) => !same(value, fields[index])),
    };
    copy = session;
    plan = nextPlan;
    revision = nextRevision;
    fields = nextFields;
    return changed;
  };
  return { seen, change };
}
