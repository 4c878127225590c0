import { AIMessage, HumanMessage, type ToolCall } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { allStepsDone, createGoal, decideGoal, type Goal } from '@plankit/controller/goal';
import type { Plan } from '@plankit/core';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../testing/scripted-chat-model.ts';
import { type GoalGate, planningMiddleware } from './planning-middleware.ts';

type IdentifiedCall = ToolCall & { id: string };
const turn = (...calls: IdentifiedCall[]) => new AIMessage({ content: '', tool_calls: calls });
const call = (id: string, name: string, args: Record<string, unknown>): IdentifiedCall => ({
  id,
  name,
  args,
  type: 'tool_call',
});

const NOW = 1_700_000_000_000;

/** The host's goal, kept in a variable here: decided after every model call. */
function goalKeeper(start: Goal) {
  let goal = start;
  const decisions: string[] = [];
  const verifier = allStepsDone();
  const decide = async (plan: Plan | undefined): Promise<GoalGate> => {
    const verdict = await verifier({ goal, plan });
    const step = decideGoal(goal, {
      plan,
      usage: { tokens: 100 },
      verdict,
      now: NOW + decisions.length,
    });
    if (!step.ok) throw step.error;
    goal = step.value.goal;
    decisions.push(step.value.decision.action);
    return step.value.decision;
  };
  return { decide, decisions, current: () => goal };
}

describe('planningMiddleware with a goal', () => {
  it('sends the decision line back when the model stops early, and ends once the goal is achieved', async () => {
    const keeper = goalKeeper(createGoal({ objective: 'Ship it', now: NOW }));
    const model = new ScriptedChatModel([
      turn(
        call('c1', 'planning_setup_plan', {
          objective: 'Ship it',
          initial_steps: [{ title: 'Build' }],
        }),
      ),
      new AIMessage('I think we are done.'),
      turn(call('c2', 'planning_mark_step', { step_id: 'S001', status: 'done' })),
      new AIMessage('Done now.'),
    ]);
    const agent = createAgent({
      model,
      middleware: [planningMiddleware({ goal: keeper.decide })],
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [new HumanMessage('Ship it.')] },
      { configurable: { thread_id: 'goal-1' } },
    );
    expect(keeper.decisions).toEqual(['continue', 'continue', 'continue', 'stop']);
    expect(keeper.current().status).toBe('achieved');
    expect(result.plan?.steps[0]?.status).toBe('done');
    const nudges = result.messages.filter(
      (message) => HumanMessage.isInstance(message) && String(message.content).startsWith('Goal: '),
    );
    expect(nudges).toHaveLength(1);
    expect(String(nudges[0]?.content)).toContain(
      'Keep working toward it: the last check says not yet',
    );
  });

  it('ends a run that only re-plans, its last tool calls unrun', async () => {
    const keeper = goalKeeper(
      createGoal({ objective: 'Ship it', guard: { churnTurns: 2 }, now: NOW }),
    );
    const replan = (n: number) =>
      turn(
        call(`c${n}`, 'planning_setup_plan', {
          objective: `Ship it ${n}`,
          initial_steps: [{ title: `Plan ${n}` }],
        }),
      );
    const model = new ScriptedChatModel([
      replan(1),
      replan(2),
      replan(3),
      replan(4),
      replan(5),
      replan(6),
    ]);
    const agent = createAgent({ model, middleware: [planningMiddleware({ goal: keeper.decide })] });
    const result = await agent.invoke({ messages: [new HumanMessage('Ship it.')] });
    expect(keeper.decisions.at(-1)).toBe('ask');
    expect(keeper.current().status).toBe('blocked');
    // The guard saw the plans of calls 1 to 3 (the model sees a plan one call late).
    expect(result.plan?.objective).toBe('Ship it 3');
  });

  it('refuses a goal that is not a function', () => {
    expect(() => planningMiddleware({ goal: 'yes' as never })).toThrow(
      /options\.goal must be a function/,
    );
  });
});
