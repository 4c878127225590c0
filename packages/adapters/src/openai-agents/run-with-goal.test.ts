import { Agent, Runner } from '@openai/agents';
import { allStepsDone, createGoal, decideGoal, type Goal } from '@plankit/controller/goal';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { runWithGoal } from './run-with-goal.ts';
import { ScriptedModel } from './testing/scripted-model.ts';
import { toOpenAIAgentsTools } from './to-openai-agents-tools.ts';

const NOW = 1_700_000_000_000;

describe('runWithGoal with the Agents SDK Runner', () => {
  it('runs the agent again on the decision line until the goal is achieved', async () => {
    const session = new Session();
    const model = new ScriptedModel([
      [
        {
          name: 'planning_setup_plan',
          args: { objective: 'Ship it', initial_steps: [{ title: 'Build' }, { title: 'Test' }] },
        },
      ],
      'I have a plan.',
      [{ name: 'planning_mark_step', args: { step_id: 'S001', status: 'done', note: null } }],
      [{ name: 'planning_mark_step', args: { step_id: 'S002', status: 'done', note: null } }],
      'All done.',
    ]);
    const agent = new Agent({
      name: 'shipper',
      model,
      tools: toOpenAIAgentsTools(createPlanningTools(session), { session }),
    });
    const runner = new Runner();
    let goal: Goal = createGoal({ objective: 'Ship it', now: NOW });
    const inputs: string[] = [];
    const { decision, runs } = await runWithGoal({
      input: 'Ship it.',
      run: (input) => {
        inputs.push(input);
        return runner.run(agent, input);
      },
      decide: async () => {
        const plan = selectLatest(session, Plan);
        const verdict = await allStepsDone()({ goal, plan });
        const step = decideGoal(goal, {
          plan,
          usage: { tokens: 50 },
          verdict,
          now: NOW + inputs.length,
        });
        if (!step.ok) throw step.error;
        goal = step.value.goal;
        return step.value.decision;
      },
    });
    expect(runs).toBe(2);
    expect(decision).toMatchObject({ action: 'stop' });
    expect(goal.status).toBe('achieved');
    expect(inputs[1]).toMatch(
      /^Goal: Ship it\. Keep working toward it: the last check says not yet: 2 of 2 plan steps are not done/,
    );
  });

  it('ends at once on a stop, and refuses what it does not take', async () => {
    let runs = 0;
    const done = await runWithGoal({
      input: 'go',
      run: async () => ++runs,
      decide: () => ({ action: 'ask' }),
    });
    expect(done).toEqual({ result: 1, decision: { action: 'ask' }, runs: 1 });
    await expect(
      runWithGoal({ input: 'go', run: 'x' as never, decide: () => ({ action: 'stop' }) }),
    ).rejects.toThrow(/options\.run must be a function/);
    await expect(
      runWithGoal({
        input: 'go',
        run: async () => 1,
        decide: () => ({ action: 'stop' }),
        turns: 3,
      } as never),
    ).rejects.toThrow(/turns/);
  });
});
