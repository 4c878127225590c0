import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import type { Plan } from '@plankit/core';
import { history } from '@plankit/core/plan-model';
import { planView } from '@plankit/core/plan-view';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel, toolCall, toolCallTurn } from '../testing/scripted-chat-model.ts';
import {
  DECOMPOSED_TITLE,
  UNICODE_OBJECTIVE,
  UNICODE_TITLES,
} from '../testing/unicode-plan-case.ts';
import { applyPlanEdit, PlanEditError, reducePlan } from './plan-edit.ts';
import { planChannel, planningMiddleware } from './planning-middleware.ts';
import { readPlanState } from './read-plan-state.ts';

// planningMiddleware's `text` option: the tools it builds take any language with
// `text: 'unicode'`, and the `plan` channel holds edits and whole plans to the same mode
// ('ascii' by default, as the tools).

function replies(messages: readonly BaseMessage[]): Record<string, [string, string]> {
  return Object.fromEntries(
    messages
      .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
      .map((m) => [m.tool_call_id, [String(m.status), String(m.content)]]),
  );
}

const titles = (plan: Plan | null | undefined) => plan?.steps.map((step) => step.title);

const japaneseSetup = {
  objective: UNICODE_OBJECTIVE,
  initial_steps: UNICODE_TITLES.map((title) => ({ title })),
};

function planningAgent(
  model: ScriptedChatModel,
  options: Parameters<typeof planningMiddleware>[0],
) {
  return createAgent({
    model,
    middleware: [planningMiddleware(options)],
    checkpointer: new MemorySaver(),
  });
}

const refusalOf = (run: () => unknown): PlanEditError | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    if (PlanEditError.isInstance(error)) return error;
    throw error;
  }
};

describe('planningMiddleware in Unicode mode', () => {
  it('sets up a Japanese plan through createAgent, shown as set in the state and the plan view', async () => {
    const model = new ScriptedChatModel([
      toolCallTurn(
        toolCall('u1', 'planning_setup_plan', japaneseSetup),
        toolCall('u2', 'planning_add_step', { steps: [{ title: DECOMPOSED_TITLE }] }),
        toolCall('u3', 'planning_mark_step', {
          step_id: 'S001',
          status: 'done',
          note: '確認済み ✅',
          explanation: '翻訳を確認した',
        }),
        toolCall('u4', 'planning_update_step', { step_id: 'S002', title: 'abc\u202Etxt.exe' }),
      ),
      new AIMessage('計画しました。'),
    ]);
    const agent = planningAgent(model, {
      text: 'unicode',
      extensions: [history({ agent: 'lead' })],
    });
    const config = { configurable: { thread_id: 'unicode' } };
    const result = await agent.invoke({ messages: [new HumanMessage('計画して')] }, config);
    const answers = replies(result.messages);
    expect(answers['u1']?.[0], answers['u1']?.[1]).toBe('success');
    expect(answers['u2']?.[0], answers['u2']?.[1]).toBe('success');
    expect(answers['u3']?.[0], answers['u3']?.[1]).toBe('success');
    expect(answers['u4']).toEqual(['error', expect.stringMatching(/Title.*U\+202E/)]);
    const expected = [...UNICODE_TITLES, 'Résumé review'];
    expect(titles(result.plan)).toEqual(expected);
    const state = readPlanState((await agent.graph.getState(config)).values);
    expect(state.plan?.objective).toBe(UNICODE_OBJECTIVE);
    expect(titles(state.plan)).toEqual(expected);
    expect(state.plan?.steps[0]?.notes).toEqual(['確認済み ✅']);
    expect(state.planHistory.at(-1)?.explanation).toBe('翻訳を確認した');
    const view = planView(state);
    expect(view?.steps.map((step) => step.title)).toEqual(expected);
    expect(view?.revision?.explanation).toBe('翻訳を確認した');
  });

  it('carries the reference edits of the unicode-mode tools into the plan channel', async () => {
    // Without history the channel gets each tool's reference edit (setup_plan, mark_step, ...),
    // found from the tool's result type: in unicode mode another schema of the same name.
    const model = new ScriptedChatModel([
      toolCallTurn(
        toolCall('r1', 'planning_setup_plan', japaneseSetup),
        toolCall('r2', 'planning_mark_step', { step_id: 'S001', status: 'done', note: '確認済み' }),
      ),
      new AIMessage('計画しました。'),
    ]);
    const agent = planningAgent(model, { text: 'unicode' });
    const config = { configurable: { thread_id: 'reference-edits' } };
    const result = await agent.invoke({ messages: [new HumanMessage('計画して')] }, config);
    expect(replies(result.messages)['r2']?.[0]).toBe('success');
    const state = readPlanState((await agent.graph.getState(config)).values);
    expect(titles(state.plan)).toEqual(UNICODE_TITLES);
    expect(state.plan?.steps[0]).toMatchObject({ status: 'done', notes: ['確認済み'] });
  });

  it('refuses non-ASCII titles in the reference words by default', async () => {
    const model = new ScriptedChatModel([
      toolCallTurn(toolCall('a1', 'planning_setup_plan', japaneseSetup)),
      new AIMessage('Stopped.'),
    ]);
    const result = await planningAgent(model, {}).invoke(
      { messages: [new HumanMessage('Plan.')] },
      { configurable: { thread_id: 'ascii' } },
    );
    expect(replies(result.messages)['a1']).toEqual([
      'error',
      expect.stringMatching(/must be ASCII\./),
    ]);
    expect(result.plan ?? null).toBeNull();
  });

  it('holds updateState edits and whole plans to the mode', async () => {
    const model = new ScriptedChatModel([new AIMessage('ok')]);
    const ascii = planningAgent(model, {});
    const unicode = planningAgent(model, { text: 'unicode' });
    const config = { configurable: { thread_id: 'edits' } };
    const edit = { op: 'setup_plan' as const, value: japaneseSetup };
    await expect(ascii.graph.updateState(config, { plan: edit })).rejects.toThrow(
      /^Plan edit refused: .*must be ASCII\./,
    );
    expect((await ascii.graph.getState(config)).values.plan ?? null).toBeNull();
    await unicode.graph.updateState(config, { plan: edit });
    const plan = (await unicode.graph.getState(config)).values.plan as Plan;
    expect(titles(plan)).toEqual(UNICODE_TITLES);
    // The same plan, whole, into the ASCII agent's channel.
    await expect(ascii.graph.updateState(config, { plan })).rejects.toThrow(PlanEditError);
    // A bidirectional override is refused in both modes, and changes nothing.
    await expect(
      unicode.graph.updateState(config, {
        plan: { op: 'update_step', value: { step_id: 'S001', title: 'abc\u202Etxt' } },
      }),
    ).rejects.toThrow(/U\+202E/);
    expect((await unicode.graph.getState(config)).values.plan).toEqual(plan);
  });
});

describe('the plan channel and its reducer in each text mode', () => {
  const unicodePlan = applyPlanEdit(
    null,
    { op: 'setup_plan', value: japaneseSetup },
    { text: 'unicode' },
  );

  it('accepts Unicode text with text: unicode, and refuses it by default as the tools do', () => {
    expect(titles(unicodePlan)).toEqual(UNICODE_TITLES);
    const edit = { op: 'add_step' as const, value: { steps: [{ title: 'Café menu' }] } };
    const refused = refusalOf(() => reducePlan(unicodePlan, edit));
    expect(refused?.code).toBe('plan_edit_refused');
    expect(refused?.message).toMatch(/^Plan edit refused: .*must be ASCII\./);
    expect(refusalOf(() => reducePlan(null, unicodePlan))?.code).toBe('plan_edit_refused');
    expect(titles(reducePlan(unicodePlan, edit, { text: 'unicode' }))).toEqual([
      ...UNICODE_TITLES,
      'Café menu',
    ]);
    // A plan equal to the channel's changes nothing, whatever the mode.
    expect(reducePlan(unicodePlan, unicodePlan)).toBe(unicodePlan);
  });

  it('refuses in both modes what no tool could store: a bidi control, a tag, text that is not NFC', () => {
    for (const text of ['ascii', 'unicode'] as const) {
      for (const [title, code] of [
        ['abc\u202Etxt', /U\+202E/],
        ['flag\u{E0067}', /U\+E0067/],
        [DECOMPOSED_TITLE, /NFC|normal/i],
      ] as const) {
        const refused = refusalOf(() =>
          reducePlan(unicodePlan, { op: 'add_step', value: { steps: [{ title }] } }, { text }),
        );
        expect(refused?.code, `${text} ${JSON.stringify(title)}`).toBe('plan_edit_refused');
        expect(refused?.message).toMatch(code);
      }
    }
  });

  it('refuses a text option that is not a mode, and a key it does not take, when the channel is built', () => {
    expect(() => planChannel({ text: 'utf8' } as never)).toThrow(
      'planChannel: options.text must be one of ascii, unicode.',
    );
    expect(() => planChannel({ txt: 'unicode' } as never)).toThrow(
      'planChannel: options.txt is not an option.',
    );
    expect(() => planningMiddleware({ text: 'latin1' } as never)).toThrow(
      'planningMiddleware: options.text must be one of ascii, unicode.',
    );
  });
});
