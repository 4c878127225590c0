import {
  allStepsDone,
  createGoal,
  decideGoal,
  type Goal,
  GoalState,
  registerGoalReducers,
  renderGoalLine,
} from '@plankit/controller/goal';
import { createPlanningTools, Plan, Session, selectLatest } from '@plankit/core';
import { renderPlanReminder } from '@plankit/prompt';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { goalStopped } from './goal-stopped.ts';
import { planReminderStep } from './plan-reminder-step.ts';
import { type Call, type SeenStep, stepResult, toolCall } from './testing/chat-script.ts';
import { toAISDKTools } from './to-ai-sdk-tools.ts';

const NOW = 1_700_000_000_000;

function setup(goal: Goal) {
  let tick = NOW;
  const session = new Session({ sessionId: 'goal', clock: () => tick++ });
  registerGoalReducers(session);
  session.dispatch(GoalState, goal);
  const tools = toAISDKTools(createPlanningTools(session), { session });
  return { session, tools };
}

/** A model that answers each step with `next(step)`'s tool calls, recording what it saw. */
function model(next: (step: number) => Call[], seen: SeenStep[]) {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      seen.push({ prompt: options.prompt as unknown[], tools: [] });
      return stepResult(next(seen.length - 1), 'Done.') as never;
    },
  });
}

/** The host's side of the goal: after each step, decide and keep the goal in the session. */
function decideAfterStep(session: Session, decisions: string[]) {
  return async () => {
    const goal = selectLatest(session, GoalState) as Goal;
    const plan = selectLatest(session, Plan);
    const verdict = await allStepsDone()({ goal, plan });
    const step = decideGoal(goal, {
      plan,
      usage: { tokens: 12 },
      verdict,
      now: NOW + 1_000 * (decisions.length + 1),
    });
    if (!step.ok) throw step.error;
    session.dispatch(GoalState, step.value.goal);
    decisions.push(step.value.decision.action);
  };
}

describe('goalStopped and the goal line with generateText', () => {
  it('keeps going while the decision says continue, and stops once the goal is achieved', async () => {
    const { session, tools } = setup(createGoal({ objective: 'Ship it', now: NOW }));
    const seen: SeenStep[] = [];
    const decisions: string[] = [];
    const script: Call[][] = [
      [
        toolCall('1', 'planning_setup_plan', {
          objective: 'Ship it',
          initial_steps: [{ title: 'Fix' }, { title: 'Test' }],
        }),
      ],
      [toolCall('2', 'planning_mark_step', { step_id: 'S001', status: 'done' })],
      [toolCall('3', 'planning_mark_step', { step_id: 'S002', status: 'done' })],
    ];
    const result = await generateText({
      model: model(
        (step) => script[step] ?? [toolCall(`x${step}`, 'planning_read_plan', {})],
        seen,
      ),
      prompt: 'Ship it.',
      tools,
      prepareStep: planReminderStep({
        session,
        render: (plan) => {
          const goal = selectLatest(session, GoalState);
          return renderPlanReminder(plan, goal === undefined ? {} : { goal: renderGoalLine(goal) });
        },
      }),
      onStepFinish: decideAfterStep(session, decisions),
      stopWhen: [goalStopped({ session }), stepCountIs(20)],
    });
    expect(result.steps).toHaveLength(3);
    expect(decisions).toEqual(['continue', 'continue', 'stop']);
    expect(selectLatest(session, GoalState)?.status).toBe('achieved');
    // From the second step on, the reminder carries the goal line, last in the prompt.
    const last = JSON.stringify(seen[1]?.prompt.at(-1));
    expect(last).toContain('Goal (active): Ship it. Used 1 of 100 turns');
  });

  it('stops a model that only re-plans as blocked, within the guard turns', async () => {
    const { session, tools } = setup(
      createGoal({ objective: 'Ship it', budget: { turns: 1_000 }, now: NOW }),
    );
    const decisions: string[] = [];
    const result = await generateText({
      model: model(
        (step) => [
          toolCall(`${step}`, 'planning_setup_plan', {
            objective: `Ship it, take ${step}`,
            initial_steps: [{ title: `Think again ${step}` }],
          }),
        ],
        [],
      ),
      prompt: 'Ship it.',
      tools,
      onStepFinish: decideAfterStep(session, decisions),
      stopWhen: [goalStopped({ session }), stepCountIs(100)],
    });
    expect(result.steps).toHaveLength(5);
    expect(decisions.at(-1)).toBe('ask');
    expect(selectLatest(session, GoalState)?.status).toBe('blocked');
  });

  it('stops a session with no goal, and refuses an unknown option', async () => {
    const session = new Session();
    expect(await goalStopped({ session })({ steps: [{}] })).toBe(true);
    expect(() => goalStopped({ session, every: 1 } as never)).toThrow(/every/);
  });
});
