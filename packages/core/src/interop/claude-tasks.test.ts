import { describe, expect, it } from 'vitest';
import { invokeTool } from '../invoke-tool.ts';
import { dependencies, owners } from '../plan-model.ts';
import { createPlanningTools } from '../planning/create-planning-tools.ts';
import { Plan } from '../planning/plan.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { fromClaudeTasks, toClaudeTasks } from './claude-tasks.ts';
import { fromPydanticAIPlan, toPydanticAIPlan } from './pydantic-ai-plan.ts';
import { planWith } from './testing/plan-with.ts';

/** A plan with dependencies, a blocked step and a claimed one. */
async function sharedPlan(): Promise<Plan> {
  const session = new Session({ sessionId: 'shared', clock: () => 1 });
  const tools = createPlanningTools(session, {
    extensions: [dependencies(), owners({ agent: 'worker-1' })],
  });
  const calls = [
    [
      tools.planning_setup_plan,
      {
        objective: 'ship',
        initial_steps: [
          { title: 'design' },
          { title: 'build', depends_on: ['S001'] },
          { title: 'docs', depends_on: ['S001'] },
        ],
      },
    ],
    [tools.planning_claim_step, { step_id: 'S001' }],
    [tools.planning_mark_step, { step_id: 'S002', status: 'blocked' }],
  ] as const;
  for (const [tool, args] of calls) {
    const result = await invokeTool(tool, args, { session });
    if (!result.success) throw result.error;
  }
  return selectLatest(session, Plan) as Plan;
}

describe('what the richer formats keep', () => {
  it('Claude tasks carry ids, dependencies both ways and owners', async () => {
    const plan = await sharedPlan();
    expect(toClaudeTasks(plan).tasks).toEqual([
      {
        id: 'S001',
        subject: 'design',
        description: '',
        status: 'pending',
        blocks: ['S002', 'S003'],
        blockedBy: [],
        owner: 'worker-1',
      },
      {
        id: 'S002',
        subject: 'build',
        description: '',
        status: 'pending',
        blocks: [],
        blockedBy: ['S001'],
      },
      {
        id: 'S003',
        subject: 'docs',
        description: '',
        status: 'pending',
        blocks: [],
        blockedBy: ['S001'],
      },
    ]);
    expect(fromClaudeTasks(plan, toClaudeTasks(plan))).toEqual({
      ok: true,
      value: { calls: [], unlisted: [] },
    });
  });

  it('pydantic-ai-harness items carry ids, depends_on and blocked on a step that waits', async () => {
    const plan = await sharedPlan();
    expect(toPydanticAIPlan(plan).items).toEqual([
      { id: 'S001', content: 'design', status: 'pending', depends_on: [] },
      { id: 'S002', content: 'build', status: 'blocked', depends_on: ['S001'] },
      { id: 'S003', content: 'docs', status: 'pending', depends_on: ['S001'] },
    ]);
    expect(fromPydanticAIPlan(plan, toPydanticAIPlan(plan))).toEqual({
      ok: true,
      value: { calls: [], unlisted: [] },
    });
  });

  it('under text: unicode, a description in another normal form leaves the details alone', async () => {
    const { session } = await planWith(
      [{ title: 'menu', details: 'Caf\u00e9' }],
      'Ship',
      'unicode',
    );
    const plan = selectLatest(session, Plan);
    const [task] = toClaudeTasks(plan).tasks;
    const nfd = { tasks: [{ ...task, description: 'Cafe\u0301' }] };
    expect(fromClaudeTasks(plan, nfd, { text: 'unicode' })).toEqual({
      ok: true,
      value: { calls: [], unlisted: [] },
    });
  });
});
