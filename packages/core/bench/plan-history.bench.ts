import { MarkStep, Session, SetupPlan } from '@plankit/core';
import {
  MAX_PLAN_REVISIONS,
  PlanChange,
  planHistory,
  registerPlanHistory,
  registerPlanModelReducers,
} from '@plankit/core/plan-model';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';

const STEPS = 20;

/** A session with a 20-step plan and `revisions` changes behind it, with or without history. */
function prepared(history: boolean, revisions: number): Session {
  const session = new Session({ sessionId: 'bench', clock: () => 0 });
  registerPlanModelReducers(session);
  if (history) registerPlanHistory(session);
  const initial_steps = Array.from({ length: STEPS }, (_, i) => ({
    title: `Step ${i + 1}`,
    details: null,
  }));
  session.dispatch(SetupPlan, { objective: 'Bench the history', initial_steps });
  for (let i = 1; i < revisions; i++) {
    const status = i % 2 === 0 ? 'pending' : 'in_progress';
    session.dispatch(MarkStep, { step_id: 'S002', status, note: null });
  }
  return session;
}

const change = {
  command: 'plankit.MarkStep',
  value: { step_id: 'S001', status: 'done', note: 'finished' },
  actor: 'worker-1',
  explanation: 'CI is green.',
} as const;

/** One attributed mark per run; the session is rolled back before each, untimed. */
function marking(session: Session, attributed: boolean): BenchSide {
  const start = session.snapshot();
  return {
    reset: () => session.rollback(start),
    run: () =>
      attributed ? session.dispatch(PlanChange, change) : session.dispatch(MarkStep, change.value),
  };
}

const cases: BenchCase[] = [
  {
    name: 'mark with history: 1,000 changes behind vs 200',
    what: `an attributed mark on a 20-step plan after 1,000 changes vs after ${MAX_PLAN_REVISIONS} (both keep the newest ${MAX_PLAN_REVISIONS} revisions): past the bound, the cost does not grow with the history`,
    maxRatio: 1.3,
    plankit: () => marking(prepared(true, 1_000), true),
    baseline: () => marking(prepared(true, MAX_PLAN_REVISIONS), true),
  },
  {
    name: 'mark with history: 200 revisions behind vs 10',
    what: `an attributed mark with a full history (${MAX_PLAN_REVISIONS} revisions, the oldest dropped) vs with 10: the copy of the bounded slice, at most this much`,
    maxRatio: 2.5,
    plankit: () => marking(prepared(true, MAX_PLAN_REVISIONS), true),
    baseline: () => marking(prepared(true, 10), true),
  },
  {
    name: 'mark with history vs without',
    what: 'an attributed mark recorded in the history (one diff, one revision) vs the plain mark, both on a 20-step plan with 10 changes behind',
    maxRatio: 5,
    plankit: () => marking(prepared(true, 10), true),
    baseline: () => marking(prepared(false, 10), false),
  },
];

/** The history option's cost per change, against the same change without it. */
export const suite: BenchSuite = {
  name: 'plan history',
  cases,
  check: () => {
    const session = prepared(true, MAX_PLAN_REVISIONS);
    if (planHistory(session).length !== MAX_PLAN_REVISIONS)
      throw new Error('the prepared history is not full');
    const result = session.dispatch(PlanChange, change);
    if (!result.ok || planHistory(session).length !== MAX_PLAN_REVISIONS)
      throw new Error('an attributed mark was not recorded within the bound');
  },
};
