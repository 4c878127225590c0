// @vitest-environment happy-dom
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { history } from '@plankit/core/plan-model';
import { type PlanView, parsePlanView, planView } from '@plankit/core/plan-view';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlanChecklist, type PlanChecklistProps } from './plan-checklist.tsx';
import { defaultPlanChecklistLabels, type PlanChecklistLabels } from './plan-checklist-labels.ts';
import { dom, parse } from './test/dom.ts';
import { planOf, UNICODE_TITLES, unicodePlan, wireView, withStep } from './test/plans.ts';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

function html(props: PlanChecklistProps): string {
  return renderToStaticMarkup(<PlanChecklist {...props} />);
}

function dependentPlan(): PlanView {
  const plan = planOf(3);
  const steps = plan.steps.map((step, i) =>
    i === 0
      ? { ...step, status: 'in_progress' as const, owner: 'writer', notes: ['started the draft'] }
      : i === 1
        ? { ...step, status: 'blocked' as const, depends_on: ['S001'], notes: ['needs the draft'] }
        : { ...step, depends_on: ['S001', 'S002'] },
  );
  return wireView({ ...plan, steps });
}

describe('PlanChecklist markup', () => {
  it('is a polite live list with each status as text and as a hidden icon', () => {
    const document = parse(html({ plan: dependentPlan() }));
    const list = document.querySelector('ol');
    expect(list?.getAttribute('aria-live')).toBe('polite');
    const rows = [...document.querySelectorAll('li')];
    expect(rows.map((row) => row.getAttribute('data-status'))).toEqual([
      'in_progress',
      'blocked',
      'pending',
    ]);
    expect(rows.map((row) => row.querySelector('.plankit-step__status')?.textContent)).toEqual([
      'In progress',
      'Blocked',
      'Pending',
    ]);
    for (const row of rows) {
      const icon = row.querySelector('.plankit-step__icon');
      expect(icon?.getAttribute('aria-hidden')).toBe('true');
      expect(icon?.textContent).not.toBe('');
    }
  });

  it('marks only the in-progress step as the current step', () => {
    const document = parse(html({ plan: dependentPlan() }));
    const current = [...document.querySelectorAll('[aria-current]')];
    expect(current).toHaveLength(1);
    expect(current[0]?.getAttribute('aria-current')).toBe('step');
    expect(current[0]?.getAttribute('data-step-id')).toBe('S001');
  });

  it('names what a blocked or not yet ready step waits on, with titles', () => {
    const document = parse(html({ plan: dependentPlan() }));
    const waiting = [...document.querySelectorAll('li')].map(
      (row) => row.querySelector('.plankit-step__waiting')?.textContent ?? null,
    );
    expect(waiting).toEqual([
      null,
      'Waiting on S001 (Step 1)',
      'Waiting on S001 (Step 1), S002 (Step 2)',
    ]);
    expect(document.querySelector('li[data-step-id="S003"]')?.getAttribute('data-waiting')).toBe(
      'true',
    );
  });

  it('shows the objective as a heading, the counts, owner and last note', () => {
    const markup = html({ plan: dependentPlan(), headingLevel: 3 });
    const document = parse(markup);
    const heading = document.querySelector('h3');
    expect(heading?.textContent).toBe('Ship the release');
    expect(document.querySelector('section')?.getAttribute('aria-labelledby')).toBe(heading?.id);
    expect(document.querySelector('.plankit-checklist__counts')?.textContent).toBe(
      '0 of 3 done, 1 in progress, 1 blocked',
    );
    expect(document.querySelector('.plankit-step__owner')?.textContent).toBe('Owner: writer');
    expect(
      [...document.querySelectorAll('.plankit-step__note')].map((note) => note.textContent),
    ).toEqual(['started the draft', 'needs the draft']);
  });

  it('shows markup, links and scripts in plan text as text, never as elements', () => {
    // Text the tools accept (printable ASCII) that a browser or a markdown renderer would run.
    const hostile = {
      objective: '<script>alert(1)</script>',
      title: '<img src=x onerror=alert(1)>',
      details: '<a href="javascript:alert(1)">details</a>',
      note: '[click](javascript:alert(1)) <iframe src=//evil.example>',
    };
    const plan = wireView({
      ...withStep(planOf(1), 0, {
        title: hostile.title,
        details: hostile.details,
        notes: [hostile.note],
      }),
      objective: hostile.objective,
    });
    const document = parse(html({ plan }));
    expect(document.querySelectorAll('script, img, a, iframe')).toHaveLength(0);
    expect(document.querySelector('h2')?.textContent).toBe(hostile.objective);
    expect(document.querySelector('.plankit-step__title')?.textContent).toBe(hostile.title);
    expect(document.querySelector('.plankit-step__details')?.textContent).toBe(hostile.details);
    expect(document.querySelector('.plankit-step__note')?.textContent).toBe(hostile.note);
  });

  it("shows the last revision's explanation from the plan history", async () => {
    const session = new Session();
    const { planning_setup_plan: setup } = createPlanningTools(session, {
      extensions: [history()],
    });
    const setUp = await invokeTool(
      setup,
      { objective: 'Ship v2', initial_steps: [{ title: 'Draft' }], explanation: 'The API changed' },
      { session },
    );
    expect(setUp.success).toBe(true);
    const markup = html({ plan: planView(session) });
    expect(markup).toContain(
      '<p class="plankit-checklist__revision" dir="auto">Last change: The API changed</p>',
    );
  });

  it('says when the plan is completed', () => {
    const markup = html({ plan: wireView(planOf(2, 2)) });
    expect(markup).toContain('2 of 2 done');
    expect(markup).toContain('Plan completed');
    expect(markup).toContain('data-status="completed"');
  });

  it('shows the goal, its status and its budget used above the counts', () => {
    const goal = {
      objective: 'Ship <v2>',
      status: 'budget_limited',
      used: '100 of 100 turns, 5000 tokens, 0.4 of 2 USD',
    };
    const document = parse(html({ plan: wireView(planOf(2, 1)), goal }));
    const line = document.querySelector('.plankit-checklist__goal');
    expect(line?.textContent).toBe(
      'Goal (out of budget): Ship <v2>. Used 100 of 100 turns, 5000 tokens, 0.4 of 2 USD.',
    );
    expect(line?.getAttribute('data-goal-status')).toBe('budget_limited');
    expect(line?.nextElementSibling?.className).toBe('plankit-checklist__counts');
    // Without a plan the goal still shows; without a goal nothing does.
    expect(html({ plan: null, goal: { objective: 'Ship', status: 'active' } })).toContain(
      '<p class="plankit-checklist__goal" data-goal-status="active">Goal (active): Ship</p>',
    );
    expect(html({ plan: null })).not.toContain('plankit-checklist__goal');
  });

  it('shows the goal the plan view carries when the host passes none', () => {
    const goal = {
      objective: 'Ship it',
      status: 'paused',
      used: '3 of 100 turns, 1200 tokens, 0.04 of 2 USD',
      budget: { tokens: null, costUsd: 2, turns: 100, wallTimeMs: null },
      reason: 'Review',
    };
    // As the client gets it: a view with the goal field, sent as JSON and parsed back.
    const view = parsePlanView(
      JSON.parse(JSON.stringify({ ...wireView(planOf(2, 1)), fields: { goal } })),
    );
    if (!view.ok) throw new Error(view.error.message);
    const line = parse(html({ plan: view.value })).querySelector('.plankit-checklist__goal');
    expect(line?.textContent).toBe(
      'Goal (paused): Ship it. Used 3 of 100 turns, 1200 tokens, 0.04 of 2 USD.',
    );
    expect(line?.getAttribute('data-goal-status')).toBe('paused');
    // The host's goal wins; null shows none; a field that is not a goal shows nothing.
    expect(html({ plan: view.value, goal: { objective: 'Mine', status: 'active' } })).toContain(
      'Goal (active): Mine',
    );
    expect(html({ plan: view.value, goal: null })).not.toContain('plankit-checklist__goal');
    const foreign = { ...view.value, fields: { goal: { title: 'x' } } };
    expect(html({ plan: foreign })).not.toContain('plankit-checklist__goal');
  });

  it('shows an empty, still live, list before there is a plan', () => {
    const document = parse(html({ plan: null }));
    expect(document.querySelector('h2')?.textContent).toBe('No plan yet');
    expect(document.querySelector('ol')?.getAttribute('aria-live')).toBe('polite');
    expect(document.querySelectorAll('li')).toHaveLength(0);
  });

  it("adds the app's class names to the default ones and takes its labels", () => {
    const document = parse(
      html({
        plan: dependentPlan(),
        classNames: { root: 'card', step: 'row', stepStatus: '' },
        labels: { status: (status) => status.toUpperCase() },
      }),
    );
    expect(document.querySelector('section')?.className).toBe('plankit-checklist card');
    expect(document.querySelector('li')?.className).toBe(
      'plankit-step row plankit-step--in_progress',
    );
    expect(document.querySelector('.plankit-step__status')?.className).toBe('plankit-step__status');
    expect(document.querySelector('.plankit-step__status')?.textContent).toBe('IN_PROGRESS');
    expect(document.querySelector('.plankit-checklist__counts')?.textContent).toBe(
      '0 of 3 done, 1 in progress, 1 blocked',
    );
  });
});

describe('PlanChecklist with plans in any language', () => {
  const FSI = '\u2068';
  const PDI = '\u2069';
  // As the client gets it: built by core, sent as JSON, read back by parsePlanView.
  const unicodeView = (): PlanView => wireView(unicodePlan());

  it('shows Japanese, emoji and Hebrew text exactly as the plan holds it', () => {
    const document = parse(html({ plan: unicodeView() }));
    expect(document.querySelector('h2')?.textContent).toBe('リリースノートを公開する 📝');
    expect(
      [...document.querySelectorAll('.plankit-step__title')].map((title) => title.textContent),
    ).toEqual(UNICODE_TITLES);
    expect(document.querySelector('.plankit-step__details')?.textContent).toBe(
      '日本語の訳文をすべて読み直す',
    );
    expect(
      [...document.querySelectorAll('.plankit-step__note')].map((note) => note.textContent),
    ).toEqual(['完了 ✅', 'עברית: נבדק']);
    expect(document.querySelector('[aria-current="step"] .plankit-step__title')?.textContent).toBe(
      'Ship v2 🚀',
    );
  });

  it('isolates every plan text in the DOM, so a right-to-left one cannot reorder its row', () => {
    const document = parse(html({ plan: unicodeView() }));
    const texts = document.querySelectorAll(
      'h2, .plankit-step__title, .plankit-step__details, .plankit-step__waiting, .plankit-step__note',
    );
    expect(texts.length).toBe(1 + 8 + 1 + 3 + 2);
    for (const text of texts) expect(text.getAttribute('dir')).toBe('auto');
    // Labels are the app's own text: they take the page's direction.
    for (const label of document.querySelectorAll('.plankit-step__status, .plankit-step__id'))
      expect(label.getAttribute('dir')).toBeNull();
  });

  it('isolates non-ASCII titles inside the waiting line, and leaves ASCII ones as they were', () => {
    const document = parse(html({ plan: unicodeView() }));
    expect(
      [...document.querySelectorAll('.plankit-step__waiting')].map((line) => line.textContent),
    ).toEqual([
      `Waiting on S002 (${FSI}Ship v2 🚀${PDI})`,
      `Waiting on S006 (${FSI}👩‍👩‍👧 家族の写真を選ぶ 🇯🇵${PDI})`,
      `Waiting on S007 (${FSI}רשימת בדיקות 2${PDI})`,
    ]);
    const ascii = parse(html({ plan: dependentPlan() }));
    expect(ascii.querySelector('.plankit-step__waiting')?.textContent).toBe(
      'Waiting on S001 (Step 1)',
    );
  });

  it("isolates a non-ASCII revision explanation inside the label's sentence", () => {
    const plan = {
      ...unicodeView(),
      revision: { number: 2, explanation: 'תוכנית חדשה', agent: null },
    };
    const document = parse(html({ plan }));
    const revision = document.querySelector('.plankit-checklist__revision');
    expect(revision?.textContent).toBe(`Last change: ${FSI}תוכנית חדשה${PDI}`);
    expect(revision?.getAttribute('dir')).toBe('auto');
  });
});

describe('PlanChecklist rendering', () => {
  let container: ReturnType<typeof dom.document.createElement>;
  let root: Root;
  let rendered: string[];
  // Each row asks for its status text once per render: the count of rows React rendered.
  const labels: Partial<PlanChecklistLabels> = {
    status: (status) => {
      rendered.push(status);
      return defaultPlanChecklistLabels.status(status);
    },
  };
  const show = (plan: PlanView | null, own: Partial<PlanChecklistLabels> = labels): void => {
    rendered = [];
    act(() => root.render(<PlanChecklist plan={plan} labels={own} />));
  };

  beforeEach(() => {
    container = dom.document.createElement('div');
    dom.document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  it('re-renders one row when one step of a 500-step plan is marked', () => {
    const plan = planOf(500, 10);
    show(wireView(plan));
    expect(rendered).toHaveLength(500);
    // A new parse of the same plan: every object is new, nothing shows differently.
    show(wireView(plan));
    expect(rendered).toHaveLength(0);
    show(wireView(withStep(plan, 250, { status: 'in_progress' })));
    expect(rendered).toEqual(['in_progress']);
    const row = container.querySelector('li[data-step-id="S251"]');
    expect(row?.getAttribute('aria-current')).toBe('step');
    expect(container.querySelector('.plankit-checklist__counts')?.textContent).toBe(
      '10 of 500 done, 1 in progress',
    );
    expect(container.querySelectorAll('li')).toHaveLength(500);
  });

  it('re-renders the steps whose wait changed when a dependency is done', () => {
    const base = planOf(4);
    const steps = base.steps.map((step, i) => (i === 0 ? step : { ...step, depends_on: ['S001'] }));
    const plan = { ...base, steps };
    show(wireView(plan));
    expect(container.querySelectorAll('[data-waiting="true"]')).toHaveLength(3);
    show(wireView(withStep(plan, 0, { status: 'done' })));
    // The marked step, and the three that no longer wait on it.
    expect(rendered).toHaveLength(4);
    expect(container.querySelectorAll('[data-waiting="true"]')).toHaveLength(0);
  });

  it('re-renders every row when the labels change', () => {
    const plan = wireView(planOf(20));
    show(plan);
    show(plan, { ...labels });
    expect(rendered).toHaveLength(20);
  });

  it('updates a Japanese plan row by row, its text as the plan holds it', () => {
    const plan = unicodePlan();
    show(wireView(plan));
    expect(rendered).toHaveLength(UNICODE_TITLES.length);
    show(wireView(withStep(plan, 1, { status: 'done', notes: ['公開しました 🎉'] })));
    // The marked step, and S006, whose wait on it ended.
    expect(rendered).toEqual(['done', 'pending']);
    expect(
      [...container.querySelectorAll('.plankit-step__title')].map((title) => title.textContent),
    ).toEqual(UNICODE_TITLES);
    expect(container.querySelector('[data-step-id="S002"] .plankit-step__note')?.textContent).toBe(
      '公開しました 🎉',
    );
    expect(container.querySelector('h2')?.textContent).toBe('リリースノートを公開する 📝');
  });

  it('goes from no plan to a plan and back', () => {
    show(null);
    expect(container.querySelector('h2')?.textContent).toBe('No plan yet');
    show(wireView(planOf(3, 1)));
    expect(container.querySelectorAll('li')).toHaveLength(3);
    show(null);
    expect(container.querySelectorAll('li')).toHaveLength(0);
  });
});
