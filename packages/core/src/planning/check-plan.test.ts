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

  it("holds text to the tools' text option: ascii by default, unicode when given", () => {
    const world = plan({ ...step('S001'), title: '\u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b' });
    const ascii = checkPlan(world);
    expect(ascii.ok).toBe(false);
    if (!ascii.ok) {
      expect(ascii.error).toMatchObject({ code: 'schema', field: 'steps[0].title' });
      expect(ascii.error.message).toBe('Not a plan: steps[0].title: Title must be ASCII.');
    }
    expect(checkPlan(world, { text: 'ascii' }).ok).toBe(false);
    expect(checkPlan(world, { text: 'unicode' }).ok).toBe(true);
    expect(checkPlan({ ...plan(), objective: 'caf\u00e9' }, { text: 'unicode' }).ok).toBe(true);
    const notes = plan({ ...step('S001'), notes: ['ok', 'caf\u00e9'] });
    expect(checkPlan(notes)).toMatchObject({ ok: false, error: { field: 'steps[0].notes[1]' } });
    // The safety rules hold in both modes.
    const hidden = checkPlan({ ...plan(), objective: 'a\u202eb' }, { text: 'unicode' });
    expect(hidden.ok || hidden.error.message).toBe(
      'Not a plan: objective: Objective must not contain U+202E (a bidirectional control).',
    );
    expect(() => checkPlan(world, { text: 'utf8' as never })).toThrow(
      'checkPlan: options.text must be one of ascii, unicode',
    );
    expect(() => checkPlan(world, { extra: 1 } as never)).toThrow(/options.extra/);
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
