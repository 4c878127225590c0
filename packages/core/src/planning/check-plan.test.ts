import { describe, expect, it } from 'vitest';
import { checkPlan } from './check-plan.ts';
import type { Plan, PlanStep } from './plan.ts';

const step = (step_id: string, status: PlanStep['status'] = 'pending'): PlanStep => ({
  step_id,
  title: 't',
  details: null,
  status,
  notes: [],
});
const plan = (...steps: PlanStep[]): Plan => ({ objective: 'o', status: 'active', steps });

describe('checkPlan', () => {
  it('returns a valid plan frozen and unchanged', () => {
    const checked = checkPlan(plan(step('S001'), step('S002', 'in_progress')));
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value).toEqual(plan(step('S001'), step('S002', 'in_progress')));
    expect(Object.isFrozen(checked.value.steps[0])).toBe(true);
  });

  it('holds the tools text rules, naming the field', () => {
    const cases: [Plan, string, RegExp][] = [
      [{ ...plan(), objective: 'a\nb' }, 'objective', /control characters/],
      [{ ...plan(), objective: 'x'.repeat(241) }, 'objective', /<= 240/],
      [plan({ ...step('S001'), title: ' t' }), 'steps[0].title', /whitespace/],
      [plan({ ...step('S001'), title: 'caf\u00e9' }), 'steps[0].title', /ASCII/],
      [plan({ ...step('S001'), details: '' }), 'steps[0].details', /empty/],
      [plan({ ...step('S001'), notes: ['\u001b[2J'] }), 'steps[0].notes[0]', /control/],
      [plan(step('../../etc')), 'steps[0].step_id', /S and a step number/],
      [plan({ ...step('S001'), owner: '__proto__' }), 'steps[0].owner', /letter or digit/],
    ];
    for (const [value, field, message] of cases) {
      const checked = checkPlan(value);
      expect(checked.ok, field).toBe(false);
      if (checked.ok) continue;
      expect(checked.error).toMatchObject({ code: 'schema', field });
      expect(checked.error.message).toMatch(message);
      expect(checked.error.message.length).toBeLessThan(2_000);
    }
    expect(checkPlan('not a plan').ok).toBe(false);
  });

  it("applies the in-progress rule of the tools' inProgress option", () => {
    const two = plan(step('S001', 'in_progress'), step('S002', 'in_progress'));
    expect(checkPlan(two).ok).toBe(true);
    expect(checkPlan(two, { inProgress: 'any' }).ok).toBe(true);
    const single = checkPlan(two, { inProgress: 'single' });
    expect(single.ok).toBe(false);
    if (single.ok) return;
    expect(single.error).toMatchObject({ code: 'step_in_progress', field: 'steps' });
    expect(single.error.message).toBe(
      'Keep at most one step in_progress at a time. Steps S001 and S002 are both in_progress.',
    );
    expect(checkPlan(plan(step('S001', 'in_progress')), { inProgress: 'single' }).ok).toBe(true);
  });
});
