import { describe, expect, it } from 'vitest';
import type { Plan } from '../plan.ts';
import { diffPlans } from './diff-plans.ts';
import { renderPlanDiff } from './render-plan-diff.ts';

const before: Plan = {
  objective: 'ship',
  status: 'active',
  steps: [{ step_id: 'S001', title: 'draft', details: null, status: 'pending', notes: [] }],
};
const after: Plan = {
  objective: 'ship',
  status: 'active',
  steps: [{ step_id: 'S001', title: 'draft', details: null, status: 'done', notes: ['ok'] }],
};

describe('renderPlanDiff, the one plan-diff renderer', () => {
  it('renders a computed PlanDiff exactly as the two plans it came from', () => {
    const diff = diffPlans(before, after);
    expect(renderPlanDiff(diff)).toBe(renderPlanDiff(before, after));
    expect(renderPlanDiff(diffPlans(null, null))).toBe('(no changes)');
  });

  it('still reads a single plan as the plan before (removed), not as a diff', () => {
    expect(renderPlanDiff(before, undefined)).toBe(renderPlanDiff(diffPlans(before, undefined)));
  });

  it('is the one plan-diff renderer: @plankit/core/plan-model exports no formatPlanDiff', async () => {
    const planModel: Record<string, unknown> = await import('../../plan-model.ts');
    expect(planModel['renderPlanDiff']).toBe(renderPlanDiff);
    expect('formatPlanDiff' in planModel).toBe(false);
  });
});
