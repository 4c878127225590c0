import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { MarkStep } from '@plankit/core';
import { PLAN_CHANNEL, type PlanChanged } from '@plankit/core/diagnostics';
import { describe, expect, it, onTestFinished } from 'vitest';
import { applyPlanEdit, planSession } from './plan-edit.ts';

function listen(): PlanChanged[] {
  const events: PlanChanged[] = [];
  const listener = (message: unknown) => events.push(message as PlanChanged);
  subscribe(PLAN_CHANNEL, listener);
  onTestFinished(() => {
    unsubscribe(PLAN_CHANNEL, listener);
  });
  return events;
}

const SETUP = { objective: 'Ship', initial_steps: [{ title: 'Build' }, { title: 'Test' }] };

describe('plan rebuilds on plankit:plan', () => {
  it('applyPlanEdit publishes nothing: it computes a plan, no session changes', () => {
    const events = listen();
    const plan = applyPlanEdit(null, { op: 'setup_plan', value: SETUP });
    const marked = applyPlanEdit(plan, {
      op: 'mark_step',
      value: { step_id: 'S001', status: 'done' },
    });
    expect(marked?.steps[0]?.status).toBe('done');
    expect(events).toEqual([]);
  });

  it('a turn session restores the stored plan unpublished, then reports its own changes', () => {
    const plan = applyPlanEdit(null, { op: 'setup_plan', value: SETUP });
    const events = listen();
    const session = planSession(plan);
    onTestFinished(() => session.dispose());
    expect(events).toEqual([]);
    expect(
      session.dispatch(MarkStep, { step_id: 'S002', status: 'in_progress', note: null }).ok,
    ).toBe(true);
    expect(events).toMatchObject([
      { revision: 2, steps: [{ stepId: 'S002', status: 'in_progress', change: 'updated' }] },
    ]);
  });
});
