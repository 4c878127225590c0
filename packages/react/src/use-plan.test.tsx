// @vitest-environment happy-dom
import type { PlanView } from '@plankit/core/plan-view';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlanMessage } from './latest-plan.ts';
import type { PlanPartWarning } from './plan-part-warning.ts';
import { dom } from './test/dom.ts';
import { planOf, UNICODE_TITLES, unicodePlan, wireView, withStep } from './test/plans.ts';
import { usePlan } from './use-plan.ts';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

const json = (view: PlanView): unknown => JSON.parse(JSON.stringify(view));

describe('usePlan', () => {
  let root: Root;
  let seen: (PlanView | null)[];
  let warnings: PlanPartWarning[];
  const onWarning = (warning: PlanPartWarning): void => {
    warnings.push(warning);
  };

  function Probe({ messages }: { readonly messages: readonly PlanMessage[] }): null {
    seen.push(usePlan(messages, { onWarning }));
    return null;
  }
  const show = (messages: readonly PlanMessage[]): void =>
    act(() => root.render(<Probe messages={messages} />));

  beforeEach(() => {
    seen = [];
    warnings = [];
    root = createRoot(dom.document.createElement('div'));
  });
  afterEach(() => act(() => root.unmount()));

  it('follows the plan part as the server updates it in place', () => {
    const start = { type: 'data-plan', id: 'plan-1', data: json(wireView(planOf(2))) };
    show([{ id: 'u1', role: 'user', parts: [{ type: 'text' }] }]);
    show([
      { id: 'u1', role: 'user', parts: [{ type: 'text' }] },
      { id: 'a1', role: 'assistant', parts: [start] },
    ]);
    const marked = { ...start, data: json(wireView(withStep(planOf(2), 0, { status: 'done' }))) };
    show([
      { id: 'u1', role: 'user', parts: [{ type: 'text' }] },
      { id: 'a1', role: 'assistant', parts: [marked, { type: 'text' }] },
    ]);
    expect(seen.map((plan) => plan?.counts.done ?? null)).toEqual([null, 0, 1]);
    expect(warnings).toEqual([]);
  });

  it('follows a Japanese plan as the server updates it, its text as sent', () => {
    const plan = unicodePlan();
    const start = { type: 'data-plan', id: 'plan-1', data: json(wireView(plan)) };
    const marked = {
      ...start,
      data: json(wireView(withStep(plan, 1, { status: 'done', notes: ['公開しました 🎉'] }))),
    };
    show([{ id: 'a1', role: 'assistant', parts: [start, { type: 'text' }] }]);
    show([{ id: 'a1', role: 'assistant', parts: [marked, { type: 'text' }] }]);
    expect(seen.map((view) => view?.steps.map((step) => step.title))).toEqual([
      UNICODE_TITLES,
      UNICODE_TITLES,
    ]);
    expect(seen[1]?.steps[1]?.last_note).toBe('公開しました 🎉');
    expect(warnings).toEqual([]);
  });

  it('keeps the same plan while only the text streams', () => {
    const part = { type: 'data-plan', id: 'plan-1', data: json(wireView(planOf(2))) };
    const text = (chars: string) => [
      { id: 'a1', role: 'assistant', parts: [{ ...part }, { type: 'text', text: chars }] },
    ];
    show(text('H'));
    show(text('He'));
    show(text('Hello'));
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBe(seen[0]);
  });

  it('reports a malformed part once while messages stream, and keeps the valid plan', () => {
    const good = { type: 'data-plan', id: 'plan-1', data: json(wireView(planOf(2))) };
    const bad = { type: 'data-plan', id: 'plan-1', data: { kind: 'plankit.plan', version: 9 } };
    const stream = (text: string): PlanMessage[] => [
      { id: 'a1', role: 'assistant', parts: [good] },
      {
        id: 'a2',
        role: 'assistant',
        parts: [bad, { type: 'text', text } as PlanMessage['parts'][number]],
      },
    ];
    show(stream('a'));
    show(stream('ab'));
    show(stream('abc'));
    expect(seen.map((plan) => plan?.counts.total)).toEqual([2, 2, 2]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.problem.code).toBe('plan_view_version_unknown');
    expect(warnings[0]?.messageId).toBe('a2');
  });

  it('never throws on hostile parts', () => {
    const hostile: PlanMessage[] = [
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'data-plan', data: 'null' },
          { type: 'data-plan', data: [] },
          { type: 'data-plan', data: Object.create({ kind: 'plankit.plan' }) },
          { type: 'data-plan', data: { kind: 'plankit.plan', version: 1, steps: 'S001' } },
        ],
      },
    ];
    show(hostile);
    expect(seen).toEqual([null]);
    expect(warnings).toHaveLength(4);
  });
});
