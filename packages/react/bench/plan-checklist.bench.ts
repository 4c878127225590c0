import type { Plan, PlanStep } from '@plankit/core';
import { type PlanView, parsePlanView, planView } from '@plankit/core/plan-view';
import {
  defaultPlanChecklistLabels,
  PlanChecklist,
  type PlanChecklistLabels,
} from '@plankit/react';
import { Window } from 'happy-dom';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';

// A DOM of its own, and `window` set only while React renders (its development build reads
// `window.event`), so the other suites in this process (the OpenAI SDK checks for `window`)
// still see Node. `act` renders and flushes synchronously, leaving no scheduled work behind.
Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);
const STEPS = 500;
const MARKED = 250;

function plan(marked: boolean): Plan {
  const steps = Array.from(
    { length: STEPS },
    (_, i): PlanStep => ({
      step_id: `S${String(i + 1).padStart(3, '0')}`,
      title: `Move ledger table ${i + 1} and verify the totals`,
      details: null,
      status: i < 100 ? 'done' : i === MARKED && marked ? 'in_progress' : 'pending',
      notes: [],
    }),
  );
  return { objective: 'Migrate the billing service to the new ledger', status: 'active', steps };
}

/** A view as the page gets each update: built, sent as JSON, parsed into new objects. */
function wire(source: Plan): PlanView {
  const parsed = parsePlanView(JSON.parse(JSON.stringify(planView(source))));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

const views = [wire(plan(false)), wire(plan(true))] as const;
let rows = 0;
const counting: PlanChecklistLabels = {
  ...defaultPlanChecklistLabels,
  status: (status) => {
    rows++;
    return defaultPlanChecklistLabels.status(status);
  },
};

/**
 * A mounted checklist whose `run` shows the other of the two views (one step marked or not),
 * synchronously. `labels` gives each render's labels: the same object lets rows skip; a new one
 * makes every row render, which is the whole list.
 */
function toggling(labels: () => PlanChecklistLabels): BenchSide {
  const window = new Window();
  const container = window.document.createElement('div');
  window.document.body.append(container);
  const root: Root = createRoot(container);
  let at = 0;
  const show = (): void => {
    Reflect.set(globalThis, 'window', window);
    try {
      act(() =>
        root.render(
          createElement(PlanChecklist, { plan: at === 0 ? views[0] : views[1], labels: labels() }),
        ),
      );
    } finally {
      Reflect.deleteProperty(globalThis, 'window');
    }
  };
  show();
  return {
    run: () => {
      at = 1 - at;
      show();
      return container;
    },
  };
}

const markCase: BenchCase = {
  name: `mark one step of ${STEPS}`,
  what: 'PlanChecklist re-render after one step is marked (memoised rows) vs the same update rendering every row',
  maxRatio: 0.5,
  plankit: (): BenchSide => toggling(() => counting),
  baseline: (): BenchSide => toggling(() => ({ ...counting })),
};

/** @internal */
export const suite: BenchSuite = {
  name: 'react',
  cases: [markCase],
  // The premise: the memoised update renders one row, the baseline all of them.
  check: () => {
    const memoised = toggling(() => counting);
    rows = 0;
    memoised.run();
    if (rows !== 1) throw new Error(`the marked update rendered ${rows} rows, not 1`);
    const whole = toggling(() => ({ ...counting }));
    rows = 0;
    whole.run();
    if (rows !== STEPS) throw new Error(`the baseline rendered ${rows} rows, not ${STEPS}`);
  },
};
