import { describe, expect, it } from 'vitest';
import type { Plan } from '../plan.ts';
import { diffPlans } from './diff-plans.ts';
import { renderPlanDiff } from './render-plan-diff.ts';

const before: Plan = {
  objective: 'ship v2',
  status: 'active',
  steps: [
    { step_id: 'S001', title: 'draft', details: null, status: 'in_progress', notes: [] },
    {
      step_id: 'S002',
      title: 'review',
      details: 'by Ana',
      status: 'pending',
      notes: ['n1'],
      depends_on: ['S001'],
    },
    { step_id: 'S003', title: 'old', details: null, status: 'pending', notes: [] },
  ],
};

const after: Plan = {
  objective: 'ship v2.1',
  status: 'active',
  steps: [
    {
      step_id: 'S001',
      title: 'draft',
      details: null,
      status: 'done',
      notes: ['merged "#4"'],
      owner: 'worker-1',
    },
    {
      step_id: 'S002',
      title: 'review all',
      details: null,
      status: 'pending',
      notes: ['n1'],
      depends_on: ['S001', 'S004'],
    },
    {
      step_id: 'S004',
      title: 'publish',
      details: null,
      status: 'pending',
      notes: [],
      depends_on: ['S001'],
      owner: 'lead',
    },
  ],
};

describe('renderPlanDiff', () => {
  it('renders every kind of change, one per line (file snapshot)', async () => {
    await expect(
      [
        renderPlanDiff(before, after),
        renderPlanDiff(null, before),
        renderPlanDiff(before, { ...before, status: 'abandoned', steps: [] }),
        renderPlanDiff(after, after),
        renderPlanDiff(
          { ...after, steps: [{ ...(after.steps[0] as Plan['steps'][number]), notes: ['a\nb'] }] },
          { ...after, steps: [{ ...(after.steps[0] as Plan['steps'][number]), notes: ['c'] }] },
        ),
      ].join('\n----\n'),
    ).toMatchFileSnapshot('./__snapshots__/render-plan-diff.txt');
  });

  it('renders text in any language as written, and NFC-equal text as unchanged', () => {
    const step = before.steps[0] as Plan['steps'][number];
    const japanese: Plan = {
      ...before,
      steps: [{ ...step, title: '\u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b' }],
    };
    const emoji: Plan = { ...before, steps: [{ ...step, title: 'Ship v2 \u{1f680}' }] };
    expect(renderPlanDiff(japanese, emoji)).toBe(
      '~ S001 title: "\u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b" -> "Ship v2 \u{1f680}"',
    );
    const cafe: Plan = { ...before, steps: [{ ...step, title: 'caf\u00e9' }] };
    expect(renderPlanDiff(cafe, structuredClone(cafe))).toBe('(no changes)');
  });

  it('is stable: the same plans render the same text, and a plan diffs empty against itself', () => {
    expect(renderPlanDiff(before, after)).toBe(
      renderPlanDiff(structuredClone(before), structuredClone(after)),
    );
    expect(diffPlans(after, structuredClone(after))).toEqual({
      objective: null,
      status: null,
      steps: [],
    });
    expect(renderPlanDiff(undefined, null)).toBe('(no changes)');
  });

  it('renders a step that gained any number of notes, one line each, without overflowing the stack', () => {
    // A restored plan may hold any number of notes; far more than a call's arguments can take.
    const step = before.steps[0] as Plan['steps'][number];
    const notes = Array.from({ length: 300_000 }, (_, n) => `note ${n}`);
    const grown: Plan = { ...before, steps: [{ ...step, notes }] };
    const lines = renderPlanDiff({ ...before, steps: [step] }, grown).split('\n');
    expect(lines).toHaveLength(notes.length);
    expect(lines.at(-1)).toBe('~ S001 note: + "note 299999"');
  });
});
