import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { Plan } from '../planning/plan.ts';
import { SetupPlan } from '../planning/plan-commands.ts';
import { registerPlanningReducers } from '../planning/planning-reducers.ts';
import { Session } from '../session.ts';
import { resetDiagnostics } from './diagnostics-channel.ts';
import { PLAN_CHANNEL } from './diagnostics-channels.ts';
import type { PlanChanged } from './diagnostics-event.ts';
import { withoutPlanChanges } from './without-plan-changes.ts';

function listen(): PlanChanged[] {
  const events: PlanChanged[] = [];
  const listener = (message: unknown) => events.push(message as PlanChanged);
  subscribe(PLAN_CHANNEL, listener);
  onTestFinished(() => {
    unsubscribe(PLAN_CHANNEL, listener);
  });
  return events;
}

const SETUP = { objective: 'Ship', initial_steps: [{ title: 'A', details: null }] };

beforeEach(() => resetDiagnostics());

describe('withoutPlanChanges', () => {
  it("keeps the session's plan changes inside it off plankit:plan, and only those", () => {
    const events = listen();
    const session = new Session({ sessionId: 'quiet' });
    const other = new Session({ sessionId: 'loud' });
    registerPlanningReducers(session);
    registerPlanningReducers(other);
    const result = withoutPlanChanges(session, () => {
      other.dispatch(SetupPlan, SETUP);
      return session.dispatch(SetupPlan, SETUP);
    });
    expect(result.ok).toBe(true);
    expect(session.select(Plan)).toHaveLength(1);
    expect(events.map((event) => event.sessionId)).toEqual(['loud']);
    session.dispatch(SetupPlan, { ...SETUP, objective: 'Again' });
    expect(events.map((event) => event.sessionId)).toEqual(['loud', 'quiet']);
  });

  it('publishes again after run throws, and nests', () => {
    const events = listen();
    const session = new Session({ sessionId: 'quiet' });
    registerPlanningReducers(session);
    expect(() =>
      withoutPlanChanges(session, () => {
        withoutPlanChanges(session, () => session.dispatch(SetupPlan, SETUP));
        session.dispatch(SetupPlan, { ...SETUP, objective: 'Inner' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(events).toEqual([]);
    session.dispatch(SetupPlan, { ...SETUP, objective: 'After' });
    expect(events.map((event) => event.objective)).toEqual(['After']);
  });
});
