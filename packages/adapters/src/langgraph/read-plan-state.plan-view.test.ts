import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { dependencies, history, owners } from '@plankit/core/plan-model';
import { type PlanView, parsePlanView, planView } from '@plankit/core/plan-view';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../testing/scripted-chat-model.ts';
import { planningMiddleware } from './planning-middleware.ts';
import { readPlanState } from './read-plan-state.ts';

// The plan channel read as the plan view a chat UI shows: the same view the AI SDK's data-plan
// part and the MCP plan view resource carry. A `useStream` client reads the same `values`.

const turn = (id: string, name: string, args: Record<string, unknown>) =>
  new AIMessage({ content: '', tool_calls: [{ id, name, args, type: 'tool_call' }] });

function agent() {
  const model = new ScriptedChatModel([
    turn('c1', 'planning_setup_plan', {
      objective: 'Ship',
      initial_steps: [{ title: 'Build' }, { title: 'Publish', depends_on: ['S001'] }],
      explanation: 'kick-off',
    }),
    turn('c2', 'planning_claim_step', { step_id: 'S001' }),
    turn('c3', 'planning_mark_step', {
      step_id: 'S001',
      status: 'done',
      note: 'built',
      explanation: 'CI is green',
    }),
    new AIMessage('Done.'),
  ]);
  return createAgent({
    model,
    middleware: [
      planningMiddleware({
        extensions: [dependencies(), owners({ agent: 'lead' }), history()],
      }),
    ],
    checkpointer: new MemorySaver(),
  });
}

const input = { messages: [new HumanMessage('Plan the release.')] };

describe('the LangGraph plan channel as a plan view', () => {
  it('planView(readPlanState(values)) shows steps, dependencies, owner, note and the newest revision', async () => {
    const graph = agent();
    const config = { configurable: { thread_id: 'view' } };
    await graph.invoke(input, config);
    const view = planView(readPlanState((await graph.graph.getState(config)).values));
    expect(view).toEqual({
      kind: 'plankit.plan',
      version: 1,
      objective: 'Ship',
      status: 'active',
      steps: [
        {
          step_id: 'S001',
          title: 'Build',
          details: null,
          status: 'done',
          depends_on: [],
          waiting_on: [],
          owner: 'lead',
          last_note: 'built',
        },
        {
          step_id: 'S002',
          title: 'Publish',
          details: null,
          status: 'pending',
          depends_on: ['S001'],
          waiting_on: [],
          owner: null,
          last_note: null,
        },
      ],
      counts: { total: 2, done: 1, in_progress: 0, pending: 1, blocked: 0 },
      revision: { number: 3, explanation: 'CI is green', agent: 'lead' },
    });
    // What a client receives as JSON reads back whole.
    expect(parsePlanView(JSON.parse(JSON.stringify(view)))).toEqual({ ok: true, value: view });
  });

  it('streams a new view with each values event, as useStream receives the state', async () => {
    const graph = agent();
    const views: (PlanView | null)[] = [];
    const stream = await graph.stream(input, {
      configurable: { thread_id: 'stream' },
      streamMode: 'values',
    });
    for await (const values of stream) {
      const view = planView(values);
      // A useStream client gets the state as JSON: the same view from it.
      expect(planView(JSON.parse(JSON.stringify(values)))).toEqual(view);
      if (JSON.stringify(view) !== JSON.stringify(views.at(-1))) views.push(view);
    }
    expect(
      views.map((view) => view && [view.revision?.number, view.steps[0]?.owner, view.counts.done]),
    ).toEqual([null, [1, null, 0], [2, 'lead', 0], [3, 'lead', 1]]);
  });
});
