import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import {
  createPlanningTools,
  defineDataType,
  defineTool,
  invokeTool,
  Plan,
  type PlanningExtension,
  type Reducer,
  Session,
  selectLatest,
  type Tool,
  ToolValidationError,
} from '@plankit/core';
import {
  type Explained,
  type ExplainedInput,
  history,
  type PlanChange,
  planHistory,
} from '@plankit/core/plan-model';
import { PlanningToolsSection } from '@plankit/prompt';
import { createAgent } from 'langchain';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { planningMiddleware, readPlanState } from './langgraph/index.ts';
import { attachStore, FileStore } from './persistence/stores/index.ts';
import { ScriptedChatModel, toolCall, toolCallTurn } from './testing/scripted-chat-model.ts';

// A plan-model extension written as an app would write one, against the public entries only:
// `planning_set_estimate` records a step's estimate (as the step's `estimate: <n>h` note), a
// command with its reducer, and a line of the planning prompt. It runs through the tools, the
// prompt section, a FileStore reload and LangGraph's planningMiddleware without any of them
// naming it.

interface SetEstimate {
  readonly step_id: string;
  readonly hours: number;
}

const SetEstimate: z.ZodType<SetEstimate, SetEstimate> = defineDataType(
  'example.SetEstimate',
  z.strictObject({ step_id: z.string(), hours: z.number().int().min(1).max(1000) }),
);

const ESTIMATE = 'estimate: ';

const setEstimateReducer: Reducer<Plan, SetEstimate> = (plans, event) => {
  const plan = plans[plans.length - 1];
  if (plan === undefined)
    throw new ToolValidationError('No plan is currently initialised.', { code: 'plan_missing' });
  const { step_id, hours } = event.value;
  if (!plan.steps.some((step) => step.step_id === step_id))
    throw new ToolValidationError(`Step ${step_id} does not exist.`, {
      code: 'step_unknown',
      field: 'step_id',
    });
  const steps = plan.steps.map((step) =>
    step.step_id !== step_id
      ? step
      : Object.freeze({
          ...step,
          notes: Object.freeze([
            ...step.notes.filter((note) => !note.startsWith(ESTIMATE)),
            `${ESTIMATE}${hours}h`,
          ]),
        }),
  );
  return [...plans.slice(0, -1), Object.freeze({ ...plan, steps: Object.freeze(steps) })];
};

type SetEstimateTool = Tool<SetEstimate, SetEstimate>;

function estimates(): PlanningExtension<
  'estimates',
  { readonly tools: { readonly planning_set_estimate: SetEstimateTool } }
> {
  return {
    name: 'estimates',
    commands: [{ dataType: SetEstimate, reducer: setEstimateReducer }],
    promptLines: () => ['- Estimate each step in whole hours with `planning_set_estimate`.'],
    tools: (context) => ({
      add: [
        defineTool({
          name: 'planning_set_estimate',
          description: 'Set the estimate of a step, in whole hours.',
          parameters: SetEstimate,
          resultType: SetEstimate,
          acceptsOverrides: context.acceptsOverrides,
          handler: (params, { session }) => {
            const plan = selectLatest(context.prepare(session), Plan);
            if (plan === undefined)
              throw new ToolValidationError('No plan is currently initialised.', {
                code: 'plan_missing',
              });
            if (!plan.steps.some((step) => step.step_id === params.step_id))
              throw new ToolValidationError(`Step ${params.step_id} does not exist.`, {
                code: 'step_unknown',
                field: 'step_id',
              });
            return {
              message: `Step ${params.step_id} estimated at ${params.hours}h.`,
              value: params,
            };
          },
        }),
      ],
    }),
  };
}

const setupArgs = { objective: 'Ship', initial_steps: [{ title: 'Build' }, { title: 'Test' }] };
const notesOf = (plan: Plan | null | undefined) => plan?.steps.map((step) => step.notes);

describe('an extension written against the public API', () => {
  it('adds its tool after the six, typed by name, and its command applies through its reducer', async () => {
    const session = new Session();
    const tools = createPlanningTools(session, { extensions: [estimates()] });
    expectTypeOf(tools.planning_set_estimate).toEqualTypeOf<SetEstimateTool>();
    expect(tools.map((tool) => tool.name).slice(6)).toEqual(['planning_set_estimate']);
    expect((await invokeTool(tools.planning_setup_plan, setupArgs, { session })).success).toBe(
      true,
    );
    const set = await invokeTool(
      tools.planning_set_estimate,
      { step_id: 'S002', hours: 3 },
      { session },
    );
    expect(set).toMatchObject({ success: true, message: 'Step S002 estimated at 3h.' });
    await invokeTool(tools.planning_set_estimate, { step_id: 'S002', hours: 5 }, { session });
    expect(notesOf(selectLatest(session, Plan))).toEqual([[], ['estimate: 5h']]);
    const unknown = await invokeTool(
      tools.planning_set_estimate,
      { step_id: 'S009', hours: 1 },
      { session },
    );
    expect(unknown).toMatchObject({ success: false, error: { code: 'step_unknown' } });
  });

  it('takes an explanation with history(), listed before or after it, and is recorded with it', async () => {
    for (const extensions of [
      [estimates(), history({ agent: 'lead' })],
      [history({ agent: 'lead' }), estimates()],
    ] as const) {
      const session = new Session();
      const tools = createPlanningTools(session, { extensions });
      expectTypeOf(tools.planning_set_estimate).toEqualTypeOf<
        Tool<SetEstimate & Explained, PlanChange, SetEstimate & ExplainedInput>
      >();
      await invokeTool(
        tools.planning_setup_plan,
        { ...setupArgs, explanation: 'kick-off' },
        { session },
      );
      await invokeTool(
        tools.planning_set_estimate,
        { step_id: 'S001', hours: 2, explanation: 'A small change.' },
        { session },
      );
      const revisions = planHistory(session);
      expect(revisions.map((revision) => [revision.command, revision.explanation])).toEqual([
        ['plankit.SetupPlan', 'kick-off'],
        ['example.SetEstimate', 'A small change.'],
      ]);
      expect(revisions[1]?.actor).toBe('lead');
      expect(revisions[1]?.diff?.steps).toEqual([
        expect.objectContaining({ step_id: 'S001', change: 'edited' }),
      ]);
    }
  });

  it('adds its prompt line after the reference bullets; the reference copy is unchanged without it', () => {
    const reference = new PlanningToolsSection({ session: new Session() }).render();
    const section = new PlanningToolsSection({ session: new Session(), extensions: [estimates()] });
    const lines = section.render().split('\n');
    const clear = lines.findIndex((line) => line.includes('planning_clear_plan'));
    expect(lines[clear + 1]).toBe(
      '- Estimate each step in whole hours with `planning_set_estimate`.',
    );
    expect(lines.filter((line) => !line.includes('planning_set_estimate')).join('\n')).toBe(
      reference,
    );
    expect(section.tools().planning_set_estimate.name).toBe('planning_set_estimate');
  });

  describe('with a FileStore', () => {
    let directory: string;
    beforeEach(async () => {
      directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-extension-'));
    });
    afterEach(async () => {
      await rm(directory, { recursive: true, force: true });
    });

    it('replays its command on a reload, as the session its tools registered it on', async () => {
      const store = new FileStore({ directory });
      const first = new Session({ sessionId: 'estimated' });
      const tools = createPlanningTools(first, { extensions: [estimates()] });
      const attached = await attachStore(first, store);
      if (!attached.ok) throw attached.error;
      await invokeTool(tools.planning_setup_plan, setupArgs, { session: first });
      await invokeTool(
        tools.planning_set_estimate,
        { step_id: 'S001', hours: 8 },
        { session: first },
      );
      expect(attached.value.failure).toBeUndefined();
      const detached = await attached.value.detach();
      expect(detached.ok).toBe(true);

      const second = new Session({ sessionId: 'estimated' });
      createPlanningTools(second, { extensions: [estimates()] });
      const reloaded = await attachStore(second, new FileStore({ directory }));
      if (!reloaded.ok) throw reloaded.error;
      expect(notesOf(selectLatest(second, Plan))).toEqual([['estimate: 8h'], []]);
      await reloaded.value.detach();

      // A session without the extension does not know the command, and says so.
      const bare = new Session({ sessionId: 'estimated' });
      createPlanningTools(bare);
      const refused = await attachStore(bare, new FileStore({ directory }));
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.message).toContain('example.SetEstimate');
    });
  });

  it('runs in planningMiddleware: offered, applied to the plan channel, refused without a plan', async () => {
    const model = new ScriptedChatModel([
      toolCallTurn(toolCall('e0', 'planning_set_estimate', { step_id: 'S001', hours: 1 })),
      toolCallTurn(
        toolCall('c1', 'planning_setup_plan', setupArgs),
        toolCall('e1', 'planning_set_estimate', { step_id: 'S002', hours: 4 }),
      ),
      new AIMessage('Done.'),
    ]);
    const agent = createAgent({
      model,
      middleware: [planningMiddleware({ extensions: [estimates()] })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'estimates' } };
    const result = await agent.invoke({ messages: [new HumanMessage('Plan it.')] }, config);
    expect(model.offered[0]).toContain('planning_set_estimate');
    const replies = Object.fromEntries(
      result.messages
        .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
        .map((m) => [m.tool_call_id, String(m.status)]),
    );
    expect(replies).toEqual({ e0: 'error', c1: 'success', e1: 'success' });
    const { plan } = readPlanState((await agent.graph.getState(config)).values);
    expect(notesOf(plan)).toEqual([[], ['estimate: 4h']]);
  });
});
