import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { createPlanningTools, invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import { dependencies } from '@plankit/core/plan-model';
import { describe, expect, it } from 'vitest';
import { fromPlanAnchor } from '../plan-anchor.ts';
import { compactAnthropicMessages } from './compact-anthropic-messages.ts';
import { PLAN_STATE_HEADER, SUMMARY_HEADER } from './compact-with-plan.ts';

describe('compactAnthropicMessages', () => {
  it('puts the summary and the plan in one user message, as two text blocks, before the tail', async () => {
    const session = new Session();
    const { planning_setup_plan: setup } = createPlanningTools(session, {
      extensions: [dependencies()],
    });
    await invokeTool(
      setup,
      {
        objective: 'Triage',
        initial_steps: [{ title: 'Read' }, { title: 'Fix', depends_on: ['S001'] }],
      },
      { session },
    );
    const messages: MessageParam[] = [
      { role: 'user', content: 'Triage the bugs.' },
      { role: 'assistant', content: [{ type: 'text', text: 'On it.' }] },
      { role: 'user', content: 'Go on.' },
    ];
    const result = await compactAnthropicMessages({
      messages,
      session,
      keep: 1,
      summarise: () => 'Asked to triage.',
    });
    expect(result.messages).toHaveLength(2);
    const [first, last] = result.messages;
    expect(last).toBe(messages[2]);
    expect(first?.role).toBe('user');
    const blocks = first?.content as { type: string; text: string }[];
    expect(blocks[0]).toEqual({ type: 'text', text: `${SUMMARY_HEADER}\n\nAsked to triage.` });
    expect(blocks[1]?.text.startsWith(PLAN_STATE_HEADER)).toBe(true);
    expect(fromPlanAnchor(blocks[1]?.text ?? '')).toEqual({
      ok: true,
      value: selectLatest(session, Plan),
    });
  });

  it('reads anchors from string and text-block content, and writes only the summary block without a plan', async () => {
    const none = await compactAnthropicMessages({
      messages: [{ role: 'user', content: 'hi' }],
      summarise: () => 'greeting',
    });
    expect(none.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: `${SUMMARY_HEADER}\n\ngreeting` }] },
    ]);
    const session = new Session();
    const { planning_setup_plan: setup } = createPlanningTools(session);
    await invokeTool(setup, { objective: 'Ship', initial_steps: [{ title: 'Tag' }] }, { session });
    const carried = await compactAnthropicMessages({
      messages: [{ role: 'user', content: 'x' }],
      session,
      summarise: () => '',
    });
    const restored = await compactAnthropicMessages({
      messages: [...carried.messages, { role: 'assistant', content: 'ok' }],
      summarise: () => '',
    });
    expect(restored.planSource).toBe('unauthenticated-anchor');
    expect(restored.plan).toEqual(selectLatest(session, Plan));
  });
});
