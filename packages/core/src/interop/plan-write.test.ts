import { describe, expect, it } from 'vitest';
import { invokeTool } from '../invoke-tool.ts';
import { createPlanningTools } from '../planning/create-planning-tools.ts';
import { Plan } from '../planning/plan.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { fromACPPlan } from './acp-plan.ts';
import { applyPlanningCalls } from './apply-planning-calls.ts';
import { fromClaudeTasks, toClaudeTasks } from './claude-tasks.ts';
import { fromCodexPlan, toCodexPlan } from './codex-plan.ts';
import { fromLangChainTodos } from './langchain-todos.ts';
import { fromPydanticAIPlan, toPydanticAIPlan } from './pydantic-ai-plan.ts';
import { planWith } from './testing/plan-with.ts';

function written<T>(result: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const ids = (plan: Plan | undefined) => plan?.steps.map((step) => step.step_id);

describe('the matching rule', () => {
  it('starts a plan from a list when there is none, marking what is not pending', () => {
    const write = written(
      fromCodexPlan(undefined, {
        plan: [
          { step: 'read', status: 'completed' },
          { step: 'write', status: 'in_progress' },
          { step: 'ship', status: 'pending' },
        ],
      }),
    );
    expect(write.calls).toEqual([
      {
        tool: 'planning_setup_plan',
        args: {
          objective: 'Plan',
          initial_steps: [{ title: 'read' }, { title: 'write' }, { title: 'ship' }],
        },
      },
      { tool: 'planning_mark_step', args: { step_id: 'S001', status: 'done' } },
      { tool: 'planning_mark_step', args: { step_id: 'S002', status: 'in_progress' } },
    ]);
    expect(write.unlisted).toEqual([]);
  });

  it('makes no call for the list the plan itself shows', async () => {
    const { session } = await planWith([
      { title: 'a', status: 'done' },
      { title: 'b', status: 'blocked' },
      { title: 'c', status: 'in_progress' },
    ]);
    const plan = selectLatest(session, Plan);
    expect(written(fromCodexPlan(plan, toCodexPlan(plan)))).toEqual({ calls: [], unlisted: [] });
  });

  it('keeps every other id when a list renames one item and completes another', async () => {
    const { session, tools } = await planWith([
      { title: 'design' },
      { title: 'build' },
      { title: 'test' },
      { title: 'ship' },
    ]);
    const before = selectLatest(session, Plan);
    const write = written(
      fromCodexPlan(before, {
        plan: [
          { step: 'design', status: 'completed' },
          { step: 'build the parser', status: 'pending' },
          { step: 'test', status: 'pending' },
          { step: 'ship', status: 'pending' },
        ],
      }),
    );
    expect(write.calls).toEqual([
      {
        tool: 'planning_update_step',
        args: { step_id: 'S002', title: 'build the parser' },
      },
      { tool: 'planning_mark_step', args: { step_id: 'S001', status: 'done' } },
    ]);
    const after = written(await applyPlanningCalls(tools, write.calls, { session }));
    expect(ids(after)).toEqual(['S001', 'S002', 'S003', 'S004']);
    expect(after?.steps.map((step) => step.title)).toEqual([
      'design',
      'build the parser',
      'test',
      'ship',
    ]);
  });

  it('matches moved items by content and appends new ones, whatever their place', async () => {
    const { session, tools } = await planWith([{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    const write = written(
      fromCodexPlan(selectLatest(session, Plan), {
        plan: [
          { step: 'c', status: 'pending' },
          { step: 'new', status: 'in_progress' },
          { step: 'a', status: 'pending' },
          { step: 'b', status: 'pending' },
        ],
      }),
    );
    const after = written(await applyPlanningCalls(tools, write.calls, { session }));
    expect(after?.steps.map((s) => [s.step_id, s.title, s.status])).toEqual([
      ['S001', 'a', 'pending'],
      ['S002', 'b', 'pending'],
      ['S003', 'c', 'pending'],
      ['S004', 'new', 'in_progress'],
    ]);
  });

  it('matches trimmed text, so a retyped space is not a rename', async () => {
    const { session } = await planWith([{ title: 'write tests' }]);
    const write = written(
      fromCodexPlan(selectLatest(session, Plan), {
        plan: [{ step: '  write tests ', status: 'pending' }],
      }),
    );
    expect(write.calls).toEqual([]);
  });

  it('keeps the steps a list leaves out, and names them', async () => {
    const { session, tools } = await planWith([{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    const write = written(
      fromCodexPlan(selectLatest(session, Plan), {
        plan: [
          { step: 'a', status: 'completed' },
          { step: 'c', status: 'pending' },
        ],
      }),
    );
    expect(write.unlisted).toEqual(['S002']);
    const after = written(await applyPlanningCalls(tools, write.calls, { session }));
    expect(ids(after)).toEqual(['S001', 'S002', 'S003']);
  });

  it('starts a new plan, keeping the objective, when no item matches a step', async () => {
    const { session, tools } = await planWith([{ title: 'a' }, { title: 'b' }], 'Release 2');
    const write = written(
      fromCodexPlan(selectLatest(session, Plan), { plan: [{ step: 'x', status: 'pending' }] }),
    );
    expect(write).toEqual({
      calls: [
        {
          tool: 'planning_setup_plan',
          args: { objective: 'Release 2', initial_steps: [{ title: 'x' }] },
        },
      ],
      unlisted: [],
    });
    const after = written(await applyPlanningCalls(tools, write.calls, { session }));
    expect(after?.steps.map((s) => s.title)).toEqual(['x']);
  });

  it('takes an objective for a new plan', () => {
    const write = written(
      fromCodexPlan(
        undefined,
        { plan: [{ step: 'x', status: 'pending' }] },
        { objective: 'Fix CI' },
      ),
    );
    expect(write.calls[0]).toMatchObject({ args: { objective: 'Fix CI' } });
  });

  it('keeps a blocked step blocked when the list says pending, and unblocks it on in_progress', async () => {
    const { session, tools } = await planWith([{ title: 'a', status: 'blocked' }, { title: 'b' }]);
    const plan = selectLatest(session, Plan);
    const same = written(
      fromCodexPlan(plan, {
        plan: [
          { step: 'a', status: 'pending' },
          { step: 'b', status: 'pending' },
        ],
      }),
    );
    expect(same.calls).toEqual([]);
    const started = written(
      fromCodexPlan(plan, {
        plan: [
          { step: 'a', status: 'in_progress' },
          { step: 'b', status: 'pending' },
        ],
      }),
    );
    const after = written(await applyPlanningCalls(tools, started.calls, { session }));
    expect(after?.steps[0]?.status).toBe('in_progress');
  });

  it('hands off under inProgress single: the step left is marked before the next starts', async () => {
    const session = new Session({ sessionId: 'single' });
    const tools = createPlanningTools(session, { inProgress: 'single' });
    const setup = await invokeTool(
      tools.planning_setup_plan,
      { objective: 'o', initial_steps: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] },
      { session },
    );
    expect(setup.success).toBe(true);
    await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S001', status: 'in_progress' },
      { session },
    );
    await invokeTool(tools.planning_mark_step, { step_id: 'S003', status: 'done' }, { session });
    // S001 done, S002 started, S003 reopened: in list order the start would come first.
    const write = written(
      fromCodexPlan(selectLatest(session, Plan), {
        plan: [
          { step: 'a', status: 'completed' },
          { step: 'b', status: 'in_progress' },
          { step: 'c', status: 'pending' },
        ],
      }),
    );
    const after = written(await applyPlanningCalls(tools, write.calls, { session }));
    expect(after?.steps.map((s) => s.status)).toEqual(['done', 'in_progress', 'pending']);
  });

  it('reopens a completed plan before adding to it', async () => {
    const { session, tools } = await planWith([{ title: 'a', status: 'done' }]);
    expect(selectLatest(session, Plan)?.status).toBe('completed');
    const write = written(
      fromCodexPlan(selectLatest(session, Plan), {
        plan: [
          { step: 'a', status: 'in_progress' },
          { step: 'follow-up', status: 'pending' },
        ],
      }),
    );
    const after = written(await applyPlanningCalls(tools, write.calls, { session }));
    expect(after?.steps.map((s) => [s.step_id, s.status])).toEqual([
      ['S001', 'in_progress'],
      ['S002', 'pending'],
    ]);
  });
});

describe('formats that carry ids', () => {
  it('pydantic-ai-harness: an item with a step id is that step, wherever it stands', async () => {
    const { session, tools } = await planWith([{ title: 'a' }, { title: 'b' }]);
    const plan = selectLatest(session, Plan);
    const write = written(
      fromPydanticAIPlan(plan, {
        items: [
          { id: 'S002', content: 'b, renamed', status: 'completed' },
          { id: 'S001', content: 'a', status: 'pending' },
        ],
      }),
    );
    const after = written(await applyPlanningCalls(tools, write.calls, { session }));
    expect(after?.steps.map((s) => [s.step_id, s.title, s.status])).toEqual([
      ['S001', 'a', 'pending'],
      ['S002', 'b, renamed', 'done'],
    ]);
    expect(toPydanticAIPlan(after).items[1]).toEqual({
      id: 'S002',
      content: 'b, renamed',
      status: 'completed',
      depends_on: [],
    });
  });

  it('Claude tasks: a description edits the details; blank keeps them', async () => {
    const { session, tools } = await planWith([{ title: 'a', details: 'old' }, { title: 'b' }]);
    const plan = selectLatest(session, Plan);
    const list = toClaudeTasks(plan);
    expect(list.tasks[0]).toEqual({
      id: 'S001',
      subject: 'a',
      description: 'old',
      status: 'pending',
      blocks: [],
      blockedBy: [],
    });
    expect(written(fromClaudeTasks(plan, list)).calls).toEqual([]);
    const write = written(
      fromClaudeTasks(plan, {
        tasks: [
          { ...list.tasks[0], description: 'new details' },
          { ...list.tasks[1], description: '' },
        ],
      }),
    );
    expect(write.calls).toEqual([
      { tool: 'planning_update_step', args: { step_id: 'S001', details: 'new details' } },
    ]);
    const after = written(await applyPlanningCalls(tools, write.calls, { session }));
    expect(after?.steps[0]?.details).toBe('new details');
  });
});

describe('every converter', () => {
  const converters = [
    ['fromCodexPlan', fromCodexPlan, { plan: [] }],
    ['fromLangChainTodos', fromLangChainTodos, { todos: [] }],
    ['fromPydanticAIPlan', fromPydanticAIPlan, { items: [] }],
    ['fromClaudeTasks', fromClaudeTasks, { tasks: [] }],
    ['fromACPPlan', fromACPPlan, { sessionUpdate: 'plan', entries: [] }],
  ] as const;

  it('refuses bad options in its own name, before reading the list', () => {
    for (const [name, from, args] of converters) {
      const call = (options: unknown) => () => from(undefined, args, options as never);
      expect(call(null)).toThrow(`${name}: options must be an object.`);
      expect(call({ when: 1 })).toThrow(`${name}: options.when is not an option.`);
      expect(call({ objective: 3 })).toThrow(`${name}: options.objective must be a string.`);
      expect(() => from(undefined, null, { when: 1 } as never)).toThrow('is not an option');
      expect(written(from(undefined, args))).toEqual({ calls: [], unlisted: [] });
    }
  });

  it('refuses arguments that are not an object in its own name', () => {
    for (const [name, from] of converters) {
      const result = from(undefined, 'plan');
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error.message).toBe(`${name}: the arguments must be an object.`);
    }
  });
});
