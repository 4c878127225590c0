// @vitest-environment happy-dom
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { trimText } from '@plankit/core/internal-unstable';
import { planView } from '@plankit/core/plan-view';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { latestPlan } from './latest-plan.ts';
import { PlanChecklist } from './plan-checklist.tsx';
import { parse } from './test/dom.ts';

// Full-Unicode text: whole graphemes, raw code units (lone surrogates and controls included,
// which the tools refuse), and pieces with astral characters, combining marks, ZWJ sequences
// and right-to-left letters mixed in.
const PIECES = [
  '翻訳',
  '🚀',
  'e\u0301',
  'a\u0308\u0323',
  '\u{1D11E}',
  '👩‍👩‍👧',
  '1️⃣',
  'שלום',
  ' ',
  'x',
];
const text = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
  fc
    .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 })
    .map((pieces) => pieces.join('')),
);

describe('PlanChecklist over any text the tools accept', () => {
  it('shows the objective and title as stored (NFC, trimmed), through the wire and the DOM', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(text, text, async (objective, title) => {
        const session = new Session();
        const { planning_setup_plan: setup } = createPlanningTools(session, { text: 'unicode' });
        const result = await invokeTool(
          setup,
          { objective, initial_steps: [{ title }] },
          { session },
        );
        // What the tools refuse is core's to test; the checklist only ever sees stored text.
        if (!result.success) return;
        accepted++;
        const stored = planView(session);
        expect(stored?.objective).toBe(trimText(objective.normalize('NFC')));
        expect(stored?.steps[0]?.title).toBe(trimText(title.normalize('NFC')));
        const sent: unknown = JSON.parse(JSON.stringify(stored));
        const { plan, warnings } = latestPlan([
          {
            id: 'a1',
            role: 'assistant',
            parts: [{ type: 'data-plan', id: 'plankit-plan', data: sent }],
          },
        ]);
        expect(warnings).toEqual([]);
        expect(plan).toEqual(stored);
        const document = parse(renderToStaticMarkup(<PlanChecklist plan={plan} />));
        expect(document.querySelector('h2')?.textContent).toBe(stored?.objective);
        expect(document.querySelector('.plankit-step__title')?.textContent).toBe(
          stored?.steps[0]?.title,
        );
      }),
      { numRuns: 200 },
    );
    // Not vacuous: a good share of the runs got past the tools.
    expect(accepted).toBeGreaterThan(100);
  });
});
