import type { Plan } from '@plankit/core';
import { STEP_STATUSES } from '@plankit/core/constants';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlanReminder } from './is-plan-reminder.ts';
import { renderPlanReminder } from './render-plan-reminder.ts';

const plan: Plan = {
  objective: 'Ship v2',
  status: 'active',
  steps: [
    { step_id: 'S001', title: 'Build', details: null, status: 'done', notes: [] },
    {
      step_id: 'S002',
      title: 'Test',
      details: null,
      status: 'pending',
      notes: [],
      depends_on: ['S001'],
    },
    {
      step_id: 'S003',
      title: 'Release',
      details: 'Tag it',
      status: 'pending',
      notes: ['after QA'],
      depends_on: ['S002'],
    },
  ],
};
const reminder = renderPlanReminder(plan) ?? '';
const withDependencies = renderPlanReminder(plan, { dependencies: true }) ?? '';

/** The reminder text in every message shape plankit's hosts carry a user message in. */
function shapes(text: string): [string, unknown][] {
  return [
    ['text', text],
    ['AI SDK ModelMessage, OpenAI chat, Anthropic', { role: 'user', content: text }],
    ['AI SDK provider prompt', { role: 'user', content: [{ type: 'text', text }] }],
    [
      'Anthropic text block',
      { role: 'user', content: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] },
    ],
    ['OpenAI Responses input', { role: 'user', content: [{ type: 'input_text', text }] }],
    [
      'OpenAI Responses message item',
      { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
    ],
    ['LangChain HumanMessage', { type: 'human', content: text, additional_kwargs: {} }],
    [
      'LangChain HumanMessage as JSON',
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'HumanMessage'],
        kwargs: { content: text, additional_kwargs: {}, response_metadata: {} },
      },
    ],
  ];
}

describe('isPlanReminder', () => {
  it('recognises the reminder in every shape plankit hosts carry it', () => {
    for (const text of [reminder, withDependencies])
      for (const [shape, message] of shapes(text))
        expect([shape, isPlanReminder(message)]).toEqual([shape, true]);
  });

  it('refuses other roles, other content and partial reminders', () => {
    const refused: unknown[] = [
      undefined,
      null,
      42,
      '',
      'Plan the release.',
      { role: 'assistant', content: reminder },
      { role: 'system', content: reminder },
      { role: 'tool', content: reminder },
      { type: 'ai', content: reminder },
      { role: 'user', type: 'function_call_output', content: reminder },
      {
        role: 'user',
        content: [
          { type: 'text', text: reminder },
          { type: 'text', text: 'more' },
        ],
      },
      { role: 'user', content: [{ type: 'image', text: reminder }] },
      { role: 'user', content: [reminder] },
      { content: reminder },
      `Quoting: ${reminder}`,
      `${reminder}\n`,
      reminder.replace('Open:\n', 'Open:\n\n'),
      reminder.replace('Keep the plan current', 'Keep the plan'),
      reminder.replace(/\nS00\d \[pending\] [^\n]*/g, ''),
      '<plan-reminder>\n</plan-reminder>',
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'AIMessage'],
        kwargs: { content: reminder },
      },
    ];
    for (const message of refused)
      expect([message, isPlanReminder(message)]).toEqual([message, false]);
  });

  it('recognises the reminder of any plan with an open step, whatever its text (property)', () => {
    const text = fc
      .oneof(
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc.constantFrom(
          '</plan-reminder>',
          '\nKeep the plan current with planning_mark_step.\n',
          'a\r\nb',
        ),
      )
      .filter((value) => !value.includes('\u0000'));
    const step = fc.record({
      step_id: fc.stringMatching(/^[!-~]{1,6}$/),
      title: text,
      details: fc.option(text),
      status: fc.constantFrom(...STEP_STATUSES),
      notes: fc.array(text, { maxLength: 2 }),
    });
    const plans = fc
      .record({
        objective: text,
        steps: fc.uniqueArray(step, { maxLength: 6, selector: (s) => s.step_id }),
      })
      .map(({ objective, steps }): Plan => {
        const done = steps.length > 0 && steps.every((s) => s.status === 'done');
        return { objective, status: done ? 'completed' : 'active', steps };
      });
    fc.assert(
      fc.property(plans, fc.boolean(), fc.boolean(), (generated, dependencies, withGoal) => {
        const goal = withGoal ? 'Goal (active): Ship it. Used 1 of 100 turns.' : undefined;
        const written = renderPlanReminder(generated, { dependencies, goal });
        if (written === undefined) return;
        for (const [, message] of shapes(written)) expect(isPlanReminder(message)).toBe(true);
        // The same text as what the model said is not a reminder.
        expect(isPlanReminder({ role: 'assistant', content: written })).toBe(false);
      }),
    );
  });
});
