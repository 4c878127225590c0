import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import type { Plan } from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel, toolCall, toolCallTurn } from '../testing/scripted-chat-model.ts';
import { applyPlanEdit, PlanEditError } from './plan-edit.ts';
import { type PlanningMiddlewareOptions, planningMiddleware } from './planning-middleware.ts';

// The opt-in plan-model options through planningMiddleware (createAgent, LangGraph
// state and checkpointer): the tools are offered, calls apply to the `plan` channel as
// `command` edits, refusals are ToolMessages with status 'error' and change nothing.

const call = toolCall;
const turn = toolCallTurn;

async function run(options: PlanningMiddlewareOptions, turns: AIMessage[], seed?: Plan) {
  const model = new ScriptedChatModel([...turns, new AIMessage('Done.')]);
  const agent = createAgent({
    model,
    middleware: [planningMiddleware(options)],
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: 'plan-model' } };
  const result = await agent.invoke(
    {
      messages: [new HumanMessage('Work the plan.')],
      ...(seed === undefined ? {} : { plan: seed }),
    },
    config,
  );
  const replies = Object.fromEntries(
    result.messages
      .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
      .map((m) => [m.tool_call_id, [String(m.status), String(m.content)]]),
  );
  const state = await agent.graph.getState(config);
  expect((state.values as { plan: Plan | null }).plan).toEqual(result.plan);
  return { plan: result.plan as Plan | null, replies, tools: model.offered[0] ?? [] };
}

describe('planningMiddleware with the opt-in plan model', () => {
  it('dependencies: depends_on applies, a step with open dependencies is refused', async () => {
    const { plan, replies } = await run({ extensions: [dependencies()] }, [
      turn(
        call('c1', 'planning_setup_plan', {
          objective: 'Ship',
          initial_steps: [{ title: 'Build' }, { title: 'Test', depends_on: ['S001'] }],
        }),
        call('c2', 'planning_mark_step', { step_id: 'S002', status: 'in_progress' }),
        call('c3', 'planning_add_step', { steps: [{ title: 'Tag', depends_on: ['S002'] }] }),
      ),
    ]);
    expect(replies['c1']?.[0]).toBe('success');
    expect(replies['c2']).toEqual([
      'error',
      expect.stringMatching(/^Tool validation failed: .*S001/),
    ]);
    expect(replies['c3']?.[0]).toBe('success');
    expect(plan?.steps.map((step) => [step.step_id, step.status, step.depends_on])).toEqual([
      ['S001', 'pending', []],
      ['S002', 'pending', ['S001']],
      ['S003', 'pending', ['S002']],
    ]);
  });

  it('batch: planning_apply_batch is offered, applies all or nothing', async () => {
    const { plan, replies, tools } = await run({ extensions: [batch()] }, [
      turn(
        call('c1', 'planning_setup_plan', {
          objective: 'Tidy',
          initial_steps: [{ title: 'a' }, { title: 'b' }],
        }),
      ),
      turn(
        call('c2', 'planning_apply_batch', {
          operations: [
            { op: 'mark', step_id: 'S001', status: 'done', note: 'merged' },
            { op: 'note', step_id: 'S002', note: 'review' },
          ],
        }),
        call('c3', 'planning_apply_batch', {
          operations: [
            { op: 'mark', step_id: 'S002', status: 'done' },
            { op: 'note', step_id: 'S009', note: 'nope' },
          ],
        }),
      ),
    ]);
    expect(tools).toContain('planning_apply_batch');
    expect(replies['c2']).toEqual(['success', expect.stringMatching(/^Applied 2 operations/)]);
    expect(replies['c3']).toEqual([
      'error',
      expect.stringMatching(/^Tool validation failed: .*S009/),
    ]);
    expect(plan?.steps.map((step) => [step.status, step.notes])).toEqual([
      ['done', ['merged']],
      ['pending', ['review']],
    ]);
  });

  it('owners: a claim applies; a claim on a step another agent holds is refused, naming it', async () => {
    const seed: Plan = {
      objective: 'Split',
      status: 'active',
      steps: [
        { step_id: 'S001', title: 'Front', details: null, status: 'pending', notes: [] },
        {
          step_id: 'S002',
          title: 'Back',
          details: null,
          status: 'pending',
          notes: [],
          owner: 'worker-2',
        },
      ],
    };
    const { plan, replies, tools } = await run(
      { extensions: [owners({ agent: 'worker-1' })] },
      [
        turn(
          call('c1', 'planning_claim_step', { step_id: 'S001' }),
          call('c2', 'planning_claim_step', { step_id: 'S002' }),
        ),
      ],
      seed,
    );
    expect(tools).toEqual(expect.arrayContaining(['planning_claim_step', 'planning_release_step']));
    expect(replies['c1']?.[0]).toBe('success');
    expect(replies['c2']).toEqual([
      'error',
      expect.stringMatching(/^Tool validation failed: .*worker-2/),
    ]);
    expect(plan?.steps.map((step) => step.owner)).toEqual(['worker-1', 'worker-2']);
  });

  it('history: an explanation is taken and the change applies; an overlong one is refused', async () => {
    const { plan, replies } = await run({ extensions: [history({ agent: 'lead' })] }, [
      turn(
        call('c1', 'planning_setup_plan', {
          objective: 'Notes',
          initial_steps: [{ title: 'Draft' }],
          explanation: 'kick-off',
        }),
        call('c2', 'planning_mark_step', {
          step_id: 'S001',
          status: 'in_progress',
          explanation: 'drafting',
        }),
        call('c3', 'planning_mark_step', {
          step_id: 'S001',
          status: 'done',
          explanation: 'x'.repeat(600),
        }),
      ),
    ]);
    expect(replies['c2']?.[0]).toBe('success');
    expect(replies['c3']).toEqual([
      'error',
      expect.stringMatching(/^Tool validation failed: .*[Ee]xplanation/),
    ]);
    expect(plan?.steps[0]?.status).toBe('in_progress');
  });

  it('refuses each flag that became an extension, naming its own extension', () => {
    expect(() => planningMiddleware({ dependencies: true } as never)).toThrow(
      "planningMiddleware: options.dependencies moved to an extension: pass extensions: [dependencies()], imported from '@plankit/core/plan-model'.",
    );
    expect(() => planningMiddleware({ batch: true } as never)).toThrow(/extensions: \[batch\(\)\]/);
    expect(() => planningMiddleware({ agent: 'lead' } as never)).toThrow(
      /pass the agent to owners\(\{ agent \}\) or history\(\{ agent \}\)/,
    );
  });

  it('refuses a command edit that names no command of its extensions, or carries a bad value', () => {
    expect(() =>
      applyPlanEdit(
        null,
        { op: 'command', value: { type: 'plankit.Nope', value: {} } },
        { extensions: [batch()] },
      ),
    ).toThrow(PlanEditError);
    expect(() =>
      applyPlanEdit(
        null,
        { op: 'command', value: { type: 'plankit.PlanBatch', value: { operations: [] } } },
        { extensions: [batch()] },
      ),
    ).toThrow(/Plan edit refused/);
    expect(() => applyPlanEdit(null, { op: 'command', value: [] as never })).toThrow(/type, value/);
  });

  it('takes exactly the commands its extensions declare in command edits', () => {
    const setup = { objective: 'Ship', initial_steps: [{ title: 'Build', details: null }] };
    const claim = { step_id: 'S001', owner: 'lead' };
    const claimEdit = {
      op: 'command',
      value: { type: 'plankit.ClaimStep', value: claim },
    } as const;
    const plan = applyPlanEdit(null, { op: 'setup_plan', value: setup });
    // No extensions: no command edit, not even one of plankit's plan model.
    let refused: unknown;
    try {
      applyPlanEdit(plan, claimEdit);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(PlanEditError);
    expect(refused).toMatchObject({ code: 'plan_edit_invalid', field: 'value.type' });
    expect(String((refused as Error).message)).toContain('extensions');
    // batch() declares PlanBatch only: a claim is still not a command of this channel.
    expect(() => applyPlanEdit(plan, claimEdit, { extensions: [batch()] })).toThrow(
      'type must be one of plankit.PlanBatch.',
    );
    const claimed = applyPlanEdit(plan, claimEdit, { extensions: [owners({ agent: 'lead' })] });
    expect(claimed?.steps[0]?.owner).toBe('lead');
    // A PlanChange only with history(), and only carrying a command of the channel's extensions.
    const change = {
      op: 'command',
      value: {
        type: 'plankit.PlanChange',
        value: { command: 'plankit.ClaimStep', value: claim, actor: 'lead', explanation: 'mine' },
      },
    } as const;
    expect(() => applyPlanEdit(plan, change, { extensions: [owners({ agent: 'lead' })] })).toThrow(
      PlanEditError,
    );
    expect(
      applyPlanEdit(plan, change, { extensions: [owners({ agent: 'lead' }), history()] })?.steps[0]
        ?.owner,
    ).toBe('lead');
  });

  it('refuses a key an edit or a command edit does not have, naming it', () => {
    expect(() => applyPlanEdit(null, { op: 'clear_plan', value: null, why: 'x' } as never)).toThrow(
      '"why" is not a key of a plan edit.',
    );
    expect(() =>
      applyPlanEdit(null, {
        op: 'command',
        value: { type: 'plankit.PlanBatch', value: { operations: [] }, extra: 1 } as never,
      }),
    ).toThrow('"extra" is not a key of a command edit.');
  });
});
