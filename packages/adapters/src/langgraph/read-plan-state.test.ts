import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { history, renderPlanRevision } from '@plankit/core/plan-model';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { AdapterError } from '../adapter-error.ts';
import { ScriptedChatModel } from '../testing/scripted-chat-model.ts';
import { planningMiddleware } from './planning-middleware.ts';
import { readPlanState } from './read-plan-state.ts';

// With history on, mutations take an explanation; without it, the strict schema refuses one.
const setupTurn = (explanation?: string) =>
  new AIMessage({
    content: '',
    tool_calls: [
      {
        id: 'c1',
        name: 'planning_setup_plan',
        args: {
          objective: 'Ship',
          initial_steps: [{ title: 'Build' }],
          ...(explanation === undefined ? {} : { explanation }),
        },
        type: 'tool_call',
      },
    ],
  });

const scripted = (explanation?: string) =>
  new ScriptedChatModel([setupTurn(explanation), new AIMessage('Planned.')], 'Done.');

function refusal(values: unknown): AdapterError {
  try {
    readPlanState(values);
  } catch (error) {
    if (AdapterError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('readPlanState accepted the values');
}

describe('readPlanState', () => {
  it("reads getState().values of an agent with history: the thread's plan and revisions, frozen", async () => {
    const agent = createAgent({
      model: scripted('kick-off'),
      middleware: [planningMiddleware({ extensions: [history({ agent: 'lead' })] })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'read-1' } };
    const result = await agent.invoke({ messages: [new HumanMessage('Plan.')] }, config);
    const { values } = await agent.graph.getState(config);
    const state = readPlanState(values);
    expect(state.plan).toEqual(result.plan);
    expect(state.plan?.steps.map((step) => step.title)).toEqual(['Build']);
    expect(state.planHistory).toEqual(result.planHistory);
    expect(state.planHistory.map(renderPlanRevision)[0]).toMatch(
      /^#1 plankit\.SetupPlan by lead: "kick-off"/,
    );
    expect(Object.isFrozen(state)).toBe(true);
    expect(Object.isFrozen(state.plan?.steps[0])).toBe(true);
    expect(Object.isFrozen(state.planHistory[0])).toBe(true);
    // The graph's own values are left as they were.
    expect(Object.isFrozen(values)).toBe(false);
  });

  it('reads an agent without history as an empty history, and a thread with no checkpoint as no plan', async () => {
    const agent = createAgent({
      model: scripted(),
      middleware: [planningMiddleware()],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'read-2' } };
    expect(readPlanState((await agent.graph.getState(config)).values)).toEqual({
      plan: null,
      planHistory: [],
    });
    await agent.invoke({ messages: [new HumanMessage('Plan.')] }, config);
    const state = readPlanState((await agent.graph.getState(config)).values);
    expect(state.plan?.objective).toBe('Ship');
    expect(state.planHistory).toEqual([]);
  });

  it('refuses values that are not a planning state with state_invalid, naming the channel', () => {
    for (const values of [undefined, null, 'plan', [], 7]) {
      const error = refusal(values);
      expect(error.code).toBe('state_invalid');
      expect(error.field).toBe('values');
    }
    const plan = refusal({ plan: { objective: 'Ship', status: 'active', steps: 'none' } });
    expect(plan.code).toBe('state_invalid');
    expect(plan.field).toBe('plan');
    expect(plan.message).toMatch(/^readPlanState: plan is not a plan: /);
    const history = refusal({ plan: null, planHistory: [{ revision: 'one' }] });
    expect(history.field).toBe('planHistory');
    expect(history.message.length).toBeLessThan(2000);
  });
});
