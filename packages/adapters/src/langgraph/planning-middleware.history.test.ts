import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import {
  history,
  MAX_PLAN_REVISIONS,
  type PlanRevision,
  renderPlanRevision,
} from '@plankit/core/plan-model';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { HoldToolStart } from '../testing/hold-tool-start.ts';
import { ScriptedChatModel, toolCall, toolCallTurn } from '../testing/scripted-chat-model.ts';
import { PlanEditError } from './plan-edit.ts';
import { reducePlanHistory } from './plan-history-channel.ts';
import { planningMiddleware } from './planning-middleware.ts';

// the `history()` extension through planningMiddleware: the revisions live in the `planHistory` channel
// beside `plan`, so getState, a resume from MemorySaver and a fork all carry them.

const call = toolCall;
const turn = toolCallTurn;
const mark = (id: string, stepId: string, status: string, explanation?: string) =>
  call(id, 'planning_mark_step', {
    step_id: stepId,
    status,
    ...(explanation === undefined ? {} : { explanation }),
  });

const summary = (history: readonly PlanRevision[] | undefined) =>
  (history ?? []).map((r) => [r.revision, r.command, r.actor, r.explanation]);

function historyAgent(model: ScriptedChatModel, checkpointer: MemorySaver) {
  return createAgent({
    model,
    middleware: [planningMiddleware({ extensions: [history({ agent: 'lead' })] })],
    checkpointer,
  });
}

describe('planningMiddleware with history: the planHistory channel', () => {
  it('records each change with actor and explanation in getState; parallel calls of one step in model order', async () => {
    const model = new ScriptedChatModel([
      turn(
        call('c1', 'planning_setup_plan', {
          objective: 'Ship',
          initial_steps: [{ title: 'Build' }, { title: 'Test' }],
          explanation: 'kick-off',
        }),
        mark('c2', 'S001', 'in_progress', 'building first'),
        mark('c3', 'S009', 'done', 'no such step'),
        call('c4', 'planning_read_plan', {}),
        mark('c5', 'S002', 'in_progress'),
      ),
      new AIMessage('Planned.'),
    ]);
    const agent = historyAgent(model, new MemorySaver());
    const config = { configurable: { thread_id: 'history' } };
    // The first calls are held longest, so they would finish last without model order.
    const hold = new HoldToolStart(
      new Map([
        ['c1', 40],
        ['c2', 20],
      ]),
    );
    const result = await agent.invoke(
      { messages: [new HumanMessage('Plan the release.')] },
      { ...config, callbacks: [hold] },
    );
    // The refused call and the read record nothing.
    expect(summary(result.planHistory)).toEqual([
      [1, 'plankit.SetupPlan', 'lead', 'kick-off'],
      [2, 'plankit.MarkStep', 'lead', 'building first'],
      [3, 'plankit.MarkStep', 'lead', null],
    ]);
    const state = await agent.graph.getState(config);
    const history = state.values.planHistory as readonly PlanRevision[];
    expect(history).toEqual(result.planHistory);
    expect(history[0]?.diff?.steps.map((change) => change.change)).toEqual(['added', 'added']);
    expect(history[1]?.diff?.steps).toEqual([
      {
        change: 'edited',
        step_id: 'S001',
        fields: [{ field: 'status', before: 'pending', after: 'in_progress' }],
      },
    ]);
    expect(renderPlanRevision(history[1] as PlanRevision)).toMatch(
      /^#2 plankit\.MarkStep by lead: "building first"\n {2}/,
    );
    // Storable: plain JSON, no plan copies, a time stamp.
    expect(JSON.parse(JSON.stringify(history))).toEqual(history);
    for (const revision of history) {
      expect(revision).not.toHaveProperty('plan');
      expect(revision.at).toBeGreaterThan(0);
    }
  });

  it('brings the history back on a resume and numbers on from it; a fork sees the history as it was', async () => {
    const model = new ScriptedChatModel([
      turn(
        call('r1', 'planning_setup_plan', {
          objective: 'Ship',
          initial_steps: [{ title: 'Build' }, { title: 'Test' }],
          explanation: 'start',
        }),
      ),
      new AIMessage('Planned.'),
      turn(mark('r2', 'S001', 'done', 'built')),
      new AIMessage('Built.'),
      turn(mark('r3', 'S002', 'done', 'tested on the fork')),
      new AIMessage('Forked.'),
    ]);
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: 'resume' } };
    await historyAgent(model, checkpointer).invoke(
      { messages: [new HumanMessage('Plan.')] },
      config,
    );
    // A new agent on the same checkpointer: the history comes back from the checkpoint.
    const agent = historyAgent(model, checkpointer);
    const before = await agent.graph.getState(config);
    expect(summary(before.values.planHistory)).toEqual([[1, 'plankit.SetupPlan', 'lead', 'start']]);
    const earlier = before.config.configurable?.['checkpoint_id'] as string;

    const resumed = await agent.invoke({ messages: [new HumanMessage('Build it.')] }, config);
    expect(summary(resumed.planHistory)).toEqual([
      [1, 'plankit.SetupPlan', 'lead', 'start'],
      [2, 'plankit.MarkStep', 'lead', 'built'],
    ]);
    // Diffed against the plan the thread had, not against no plan.
    expect(resumed.planHistory[1]?.diff?.steps).toEqual([
      {
        change: 'edited',
        step_id: 'S001',
        fields: [{ field: 'status', before: 'pending', after: 'done' }],
      },
    ]);

    // Fork from the checkpoint before S001 was marked: its history ends at the setup.
    const forkConfig = { configurable: { thread_id: 'resume', checkpoint_id: earlier } };
    const forked = await agent.invoke({ messages: [new HumanMessage('Test first.')] }, forkConfig);
    expect(summary(forked.planHistory)).toEqual([
      [1, 'plankit.SetupPlan', 'lead', 'start'],
      [2, 'plankit.MarkStep', 'lead', 'tested on the fork'],
    ]);
    expect(forked.planHistory[1]?.diff?.steps[0]?.step_id).toBe('S002');
    expect(forked.plan?.steps.map((step) => step.status)).toEqual(['pending', 'done']);
    // The original branch keeps its own history at its checkpoints.
    const explanations: (string | null)[] = [];
    for await (const snapshot of agent.graph.getStateHistory(config))
      for (const revision of (snapshot.values.planHistory ?? []) as PlanRevision[])
        explanations.push(revision.explanation);
    expect(explanations).toContain('built');
  });

  it('takes a revision beside a plan edit in updateState, and refuses a bad one, changing nothing', async () => {
    const model = new ScriptedChatModel([
      turn(
        call('u1', 'planning_setup_plan', {
          objective: 'Ship',
          initial_steps: [{ title: 'Build' }],
          explanation: 'start',
        }),
      ),
      new AIMessage('Planned.'),
    ]);
    const agent = historyAgent(model, new MemorySaver());
    const config = { configurable: { thread_id: 'update' } };
    await agent.invoke({ messages: [new HumanMessage('Plan.')] }, config);
    const byHand: PlanRevision = {
      revision: 1,
      at: 5,
      command: 'plankit.MarkStep',
      actor: 'operator',
      explanation: 'done by hand',
      diff: null,
    };
    await agent.graph.updateState(config, {
      plan: { op: 'mark_step', value: { step_id: 'S001', status: 'done' } },
      planHistory: { append: [byHand] },
    });
    const state = await agent.graph.getState(config);
    expect(summary(state.values.planHistory as PlanRevision[])).toEqual([
      [1, 'plankit.SetupPlan', 'lead', 'start'],
      [2, 'plankit.MarkStep', 'operator', 'done by hand'],
    ]);
    await expect(
      agent.graph.updateState(config, {
        planHistory: { append: [{ ...byHand, actor: 7 }] } as never,
      }),
    ).rejects.toThrow(PlanEditError);
    expect((await agent.graph.getState(config)).values.planHistory).toEqual(
      state.values.planHistory,
    );
  });

  it('refuses through updateState what the tools refuse, and renders no forged line', async () => {
    const model = new ScriptedChatModel([
      turn(
        call('i1', 'planning_setup_plan', {
          objective: 'Ship',
          initial_steps: [{ title: 'Build' }, { title: 'Test' }],
          explanation: 'start',
        }),
        mark('i2', 'S001', 'in_progress'),
      ),
      new AIMessage('Planned.'),
    ]);
    const agent = createAgent({
      model,
      middleware: [
        planningMiddleware({ extensions: [history({ agent: 'lead' })], inProgress: 'single' }),
      ],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'hostile' } };
    await agent.invoke({ messages: [new HumanMessage('Plan.')] }, config);
    const before = (await agent.graph.getState(config)).values;
    const revision: PlanRevision = {
      revision: 1,
      at: 5,
      command: 'plankit.MarkStep',
      actor: 'operator',
      explanation: 'by hand',
      diff: null,
    };
    const step = { step_id: 'S001', title: 'Build', details: null, status: 'pending', notes: [] };
    const plan = (steps: unknown[]) => ({ objective: 'Ship', status: 'active', steps });
    const refusals: [string, Record<string, unknown>][] = [
      ['actor __proto__', { planHistory: { append: [{ ...revision, actor: '__proto__' }] } }],
      ['actor with a line break', { planHistory: [{ ...revision, actor: 'op\n#9 forged' }] }],
      [
        'explanation with U+0000',
        { planHistory: { append: [{ ...revision, explanation: 'a\u0000' }] } },
      ],
      [
        '1 MB explanation',
        { planHistory: { append: [{ ...revision, explanation: 'x'.repeat(1 << 20) }] } },
      ],
      [
        'newline in a note',
        { plan: { op: 'mark_step', value: { step_id: 'S002', status: 'pending', note: 'a\nb' } } },
      ],
      [
        'ESC in a title',
        { plan: { op: 'update_step', value: { step_id: 'S002', title: 'T\u001b[2J' } } },
      ],
      [
        '100,000-character title',
        { plan: { op: 'add_step', value: { steps: [{ title: 'x'.repeat(100_000) }] } } },
      ],
      [
        'two steps in progress (edit)',
        { plan: { op: 'mark_step', value: { step_id: 'S002', status: 'in_progress' } } },
      ],
      [
        'two steps in progress (plan)',
        {
          plan: plan([
            { ...step, status: 'in_progress' },
            { ...step, step_id: 'S002', status: 'in_progress' },
          ]),
        },
      ],
      ['step id ../../etc', { plan: plan([{ ...step, step_id: '../../etc' }]) }],
      [
        'title with a line break (plan)',
        { plan: plan([{ ...step, title: 'a\nS009 [done] forged' }]) },
      ],
    ];
    for (const [label, update] of refusals) {
      const error = await agent.graph.updateState(config, update as never).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(PlanEditError.isInstance(error), label).toBe(true);
      expect((error as PlanEditError).message.length, label).toBeLessThan(2_000);
    }
    // Nothing changed.
    expect((await agent.graph.getState(config)).values).toEqual(before);
    // Were such a revision rendered anyway, its actor stays on the header line.
    const forged = renderPlanRevision({ ...revision, actor: 'op\n#9 forged' });
    expect(forged.split('\n')).toEqual([
      '#1 plankit.MarkStep by op\\n#9 forged: "by hand"',
      '  (changes not recorded: the plan before is not known)',
    ]);
  });

  it('answers a planning call on a planHistory channel a damaged checkpoint left without numbered revisions as a failed call; the thread runs on', async () => {
    for (const [index, damaged] of [
      'a history',
      { revisions: 1 },
      [{ revision: 'one' }],
    ].entries()) {
      const model = new ScriptedChatModel([
        turn(
          call('h1', 'planning_setup_plan', {
            objective: 'Ship',
            initial_steps: [{ title: 'Build' }],
            explanation: 'kick-off',
          }),
        ),
        new AIMessage('Planned.'),
        turn(mark('h2', 'S001', 'done', 'built')),
        new AIMessage('Noted.'),
      ]);
      const checkpointer = new MemorySaver();
      const agent = historyAgent(model, checkpointer);
      const config = { configurable: { thread_id: `damaged-history-${index}` } };
      await agent.invoke({ messages: [new HumanMessage('Plan.')] }, config);
      const saved = await checkpointer.getTuple(config);
      if (saved?.metadata === undefined) throw new Error('no checkpoint');
      const checkpoint = structuredClone(saved.checkpoint);
      checkpoint.channel_values['planHistory'] = damaged;
      await checkpointer.put(saved.config, checkpoint, saved.metadata);
      const result = await agent.invoke({ messages: [new HumanMessage('Build it.')] }, config);
      const answer = result.messages.find(
        (message) => ToolMessage.isInstance(message) && message.tool_call_id === 'h2',
      ) as ToolMessage | undefined;
      expect(answer?.status).toBe('error');
      expect(String(answer?.content)).toMatch(
        /^Tool 'planning_mark_step' execution failed: Plan history update refused: /,
      );
      // Neither the plan nor the history changed.
      const { values } = await agent.graph.getState(config);
      expect(values.plan?.steps[0]?.status).toBe('pending');
      expect(values.planHistory).toEqual(damaged);
    }
  });

  it('adds no planHistory channel with history off', async () => {
    const model = new ScriptedChatModel([
      turn(call('o1', 'planning_setup_plan', { objective: 'Ship', initial_steps: [] })),
      new AIMessage('Planned.'),
    ]);
    const agent = createAgent({
      model,
      middleware: [planningMiddleware({})],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'off' } };
    const result = await agent.invoke({ messages: [new HumanMessage('Plan.')] }, config);
    expect(result.plan?.objective).toBe('Ship');
    expect(result).not.toHaveProperty('planHistory');
    expect((await agent.graph.getState(config)).values).not.toHaveProperty('planHistory');
  });
});

describe('reducePlanHistory', () => {
  const revision = (explanation: string | null): PlanRevision => ({
    revision: 99,
    at: 1,
    command: 'plankit.MarkStep',
    actor: 'lead',
    explanation,
    diff: null,
  });

  it('appends renumbered revisions, keeps the newest MAX_PLAN_REVISIONS, drops plan copies', () => {
    let history: readonly PlanRevision[] = [];
    for (let i = 0; i < MAX_PLAN_REVISIONS + 5; i++)
      history = reducePlanHistory(history, {
        append: [{ ...revision(`#${i}`), plan: null }],
      });
    expect(history).toHaveLength(MAX_PLAN_REVISIONS);
    expect(history[0]?.revision).toBe(6);
    expect(history.at(-1)?.revision).toBe(MAX_PLAN_REVISIONS + 5);
    expect(history.at(-1)).not.toHaveProperty('plan');
    expect(Object.isFrozen(history)).toBe(true);
  });

  it('keeps a whole history equal to its own, replaces with another, empties on null', () => {
    const history = reducePlanHistory([], { append: [revision('a')] });
    expect(reducePlanHistory(history, JSON.parse(JSON.stringify(history)))).toBe(history);
    expect(reducePlanHistory(history, [revision('b')])).toEqual([revision('b')]);
    expect(reducePlanHistory(history, null)).toEqual([]);
    expect(reducePlanHistory(history, undefined)).toBe(history);
  });

  it('refuses anything but revisions and leaves the history as it was', () => {
    const history = reducePlanHistory([], { append: [revision('a')] });
    const bad: unknown[] = [
      { append: [{ ...revision('x'), actor: 7 }] },
      { append: [revision('x')], drop: true },
      [{ nope: 1 }],
      { append: 'x' },
      { ['__proto__']: [] },
    ];
    for (const update of bad)
      expect(() => reducePlanHistory(history, update as never)).toThrow(PlanEditError);
    expect(summary(history)).toEqual([[1, 'plankit.MarkStep', 'lead', 'a']]);
  });

  it('keeps a damaged history sent back as it is, and refuses to number revisions on from it', () => {
    for (const damaged of ['a history', { revisions: 1 }, [{ revision: 'one' }]]) {
      const current = damaged as unknown as readonly PlanRevision[];
      expect(reducePlanHistory(current, structuredClone(damaged) as never)).toBe(current);
      expect(() => reducePlanHistory(current, { append: [revision('a')] })).toThrow(
        expect.objectContaining({ code: 'plan_edit_refused', field: 'planHistory' }),
      );
      expect(reducePlanHistory(current, null)).toEqual([]);
    }
  });
  it('stamps each revision sent with the clock option, not the wall clock', async () => {
    const model = new ScriptedChatModel([
      turn(
        call('k1', 'planning_setup_plan', {
          objective: 'Ship',
          initial_steps: [{ title: 'Build' }],
        }),
        mark('k2', 'S001', 'in_progress'),
      ),
      new AIMessage('Planned.'),
    ]);
    let now = 1_000;
    const agent = createAgent({
      model,
      middleware: [
        planningMiddleware({ extensions: [history({ agent: 'lead' })], clock: () => now++ }),
      ],
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [new HumanMessage('Plan.')] },
      { configurable: { thread_id: 'clocked' } },
    );
    expect(result.planHistory.map((revision: PlanRevision) => revision.at)).toEqual([1_000, 1_001]);
  });

  it('refuses an append to a history without numbered revisions, saying to replace it with a whole history or null', () => {
    for (const damaged of [{ revisions: 1 }, [{ revision: 'one' }]]) {
      expect(() =>
        reducePlanHistory(damaged as never, { append: [] as PlanRevision[] }),
      ).not.toThrow();
      const revision = reducePlanHistory([], {
        append: [
          {
            revision: 1,
            at: 1,
            command: 'plankit.ClearPlan',
            actor: null,
            explanation: null,
            diff: null,
          },
        ],
      })[0] as PlanRevision;
      expect(() => reducePlanHistory(damaged as never, { append: [revision] })).toThrow(
        new PlanEditError(
          'plan_edit_refused',
          'Plan history update refused: the channel holds no list of numbered revisions to append to; replace it with a whole history or null.',
        ).message,
      );
    }
  });
});
