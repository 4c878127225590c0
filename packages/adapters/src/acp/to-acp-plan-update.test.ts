import type { Plan, PlanStep, StepStatus } from '@plankit/core';
import { toACPPlan } from '@plankit/core/interop';
import { describe, expect, it } from 'vitest';
import { toACPPlanUpdate } from './to-acp-plan-update.ts';

const step = (n: number, status: StepStatus): PlanStep => ({
  step_id: `S00${n}`,
  title: `Step ${n}`,
  details: '',
  status,
  notes: [],
});

const plan = (status: Plan['status'], ...statuses: StepStatus[]): Plan => ({
  objective: 'Ship',
  status,
  steps: statuses.map((s, index) => step(index + 1, s)),
});

describe('toACPPlanUpdate', () => {
  it('lists the steps in plan order with their titles and the three ACP statuses', () => {
    expect(toACPPlanUpdate(plan('active', 'done', 'in_progress', 'pending'))).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Step 1', priority: 'medium', status: 'completed' },
        { content: 'Step 2', priority: 'medium', status: 'in_progress' },
        { content: 'Step 3', priority: 'medium', status: 'pending' },
      ],
    });
  });

  it('is the interop mapping wherever ACP can say the status', () => {
    const active = plan('completed', 'done', 'done');
    expect(toACPPlanUpdate(active)).toEqual(toACPPlan(active));
  });

  it('shows a blocked step as pending, its content prefixed [blocked]', () => {
    expect(toACPPlanUpdate(plan('active', 'done', 'blocked')).entries[1]).toEqual({
      content: '[blocked] Step 2',
      priority: 'medium',
      status: 'pending',
    });
  });

  it('keeps an abandoned plan listed: finished steps completed, the rest pending and [abandoned]', () => {
    expect(toACPPlanUpdate(plan('abandoned', 'done', 'in_progress', 'blocked')).entries).toEqual([
      { content: 'Step 1', priority: 'medium', status: 'completed' },
      { content: '[abandoned] Step 2', priority: 'medium', status: 'pending' },
      { content: '[abandoned] Step 3', priority: 'medium', status: 'pending' },
    ]);
  });

  it('has no entries without a plan', () => {
    expect(toACPPlanUpdate(undefined)).toEqual({ sessionUpdate: 'plan', entries: [] });
  });
});
