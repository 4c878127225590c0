import { describe, expect, it } from 'vitest';
import { isPlanFinished, openSteps } from './open-steps.ts';
import type { Plan } from './plan.ts';
import { renderPlan, renderStep } from './render-plan.ts';

const plan: Plan = {
  objective: 'ship v2',
  status: 'active',
  steps: [
    { step_id: 'S001', title: 'draft', details: null, status: 'done', notes: [] },
    {
      step_id: 'S002',
      title: 'review',
      details: 'with legal',
      status: 'in_progress',
      notes: ['asked', 'waiting'],
    },
    { step_id: 'S003', title: 'publish', details: '', status: 'pending', notes: ['soon'] },
  ],
};

describe('renderStep / renderPlan', () => {
  it('renders the reference text forms', () => {
    expect(renderStep(plan.steps[0] as Plan['steps'][0])).toBe('S001 [done] draft');
    expect(renderStep(plan.steps[1] as Plan['steps'][0])).toBe(
      'S002 [in_progress] review | details: with legal | notes: asked | waiting',
    );
    expect(renderStep(plan.steps[2] as Plan['steps'][0])).toBe(
      'S003 [pending] publish | notes: soon',
    );
    expect(renderPlan(plan)).toBe(
      'Objective: ship v2\nStatus: active\n\nS001 [done] draft\nS002 [in_progress] review | details: with legal | notes: asked | waiting\nS003 [pending] publish | notes: soon',
    );
    expect(renderPlan({ objective: 'o', status: 'abandoned', steps: [] })).toBe(
      'Objective: o\nStatus: abandoned\n\n<no steps>',
    );
  });
});

describe('rendering untrusted text', () => {
  it('escapes line breaks and other control characters, so text cannot forge lines', () => {
    const forged: Plan = {
      objective: 'o\nStatus: completed',
      status: 'active',
      steps: [
        {
          step_id: 'S001',
          title: 'a\nS002 [done] forged',
          details: 'd\r\n',
          status: 'pending',
          notes: ['n\u0000', 'tab\there', 'sep\u2028x'],
        },
      ],
    };
    const text = renderPlan(forged);
    expect(text.split('\n')).toHaveLength(4);
    expect(text).toBe(
      'Objective: o\\nStatus: completed\nStatus: active\n\nS001 [pending] a\\nS002 [done] forged | details: d\\r\\n | notes: n\\u0000 | tab\\there | sep\\u2028x',
    );
  });
});

describe('rendering text in any language', () => {
  it('writes text of the unicode mode as it is: no escapes, one line per step', () => {
    const world: Plan = {
      objective: '\u30ea\u30ea\u30fc\u30b9\u306e\u6e96\u5099',
      status: 'active',
      steps: [
        {
          step_id: 'S001',
          title: '\u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b',
          details: 'Caf\u00e9 menu',
          status: 'in_progress',
          notes: ['Don\u2019t forget tests', 'Ship v2 \u{1f680}'],
        },
      ],
    };
    expect(renderPlan(world)).toBe(
      'Objective: \u30ea\u30ea\u30fc\u30b9\u306e\u6e96\u5099\nStatus: active\n\n' +
        'S001 [in_progress] \u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b | details: Caf\u00e9 menu | notes: Don\u2019t forget tests | Ship v2 \u{1f680}',
    );
  });
});

describe('openSteps / isPlanFinished', () => {
  it('lists the steps not done', () => {
    expect(openSteps(plan).map((s) => s.step_id)).toEqual(['S002', 'S003']);
    expect(isPlanFinished(plan)).toBe(false);
  });

  it('finds nothing open without a plan, on an abandoned plan or when all is done', () => {
    expect(openSteps(undefined)).toEqual([]);
    expect(isPlanFinished(undefined)).toBe(true);
    expect(isPlanFinished({ ...plan, status: 'abandoned' })).toBe(true);
    expect(isPlanFinished({ ...plan, steps: [plan.steps[0] as Plan['steps'][0]] })).toBe(true);
  });
});
