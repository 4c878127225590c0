import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  type ToolCall,
  ToolMessage,
} from '@langchain/core/messages';
import { tool as langChainTool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { Plan } from '@plankit/core';
import { batch } from '@plankit/core/plan-model';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';
import { HoldToolStart } from '../testing/hold-tool-start.ts';
import { ScriptedChatModel } from '../testing/scripted-chat-model.ts';
import { applyPlanEdit, PlanEditError } from './plan-edit.ts';
import { planningMiddleware } from './planning-middleware.ts';

type IdentifiedCall = ToolCall & { id: string };
const turn = (...calls: IdentifiedCall[]) => new AIMessage({ content: '', tool_calls: calls });
const call = (id: string, name: string, args: Record<string, unknown>): IdentifiedCall => ({
  id,
  name,
  args,
  type: 'tool_call',
});
const setup = (id: string, objective: string, titles: string[]) =>
  call(id, 'planning_setup_plan', {
    objective,
    initial_steps: titles.map((title) => ({ title })),
  });
const mark = (id: string, stepId: string, status = 'done') =>
  call(id, 'planning_mark_step', { step_id: stepId, status });

function replies(messages: readonly BaseMessage[]): Record<string, [string, string]> {
  return Object.fromEntries(
    messages
      .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
      .map((m) => [m.tool_call_id, [String(m.status), String(m.content)]]),
  );
}

const statuses = (plan: Plan | null | undefined) => plan?.steps.map((step) => step.status);
const reminder = (plan: Plan | undefined) =>
  plan === undefined ? undefined : `<plan>${plan.objective}: ${statuses(plan)?.join(',')}</plan>`;

function agentWith(model: ScriptedChatModel, checkpointer = new MemorySaver()) {
  return createAgent({
    model,
    systemPrompt: 'You are a planner.',
    middleware: [planningMiddleware({ section: '## Planning\n\nKeep a plan.', reminder })],
    checkpointer,
  });
}

describe('planningMiddleware with createAgent and MemorySaver', () => {
  it('merges parallel planning calls of one AIMessage in model order, whatever order they run in', async () => {
    const model = new ScriptedChatModel([
      turn(
        setup('c1', 'Ship', ['Build', 'Test']),
        call('c2', 'planning_add_step', { steps: [{ title: 'Release' }] }),
        mark('c3', 'S001'),
        mark('c4', 'S003', 'in_progress'),
        mark('c5', 'S009'),
      ),
      new AIMessage('Planned.'),
    ]);
    const agent = agentWith(model);
    // The first calls are held longest, so they would finish last without model order.
    const hold = new HoldToolStart(
      new Map([
        ['c1', 40],
        ['c2', 25],
        ['c3', 10],
      ]),
    );
    const result = await agent.invoke(
      { messages: [new HumanMessage('Plan the release.')] },
      { configurable: { thread_id: 'order' }, callbacks: [hold] },
    );
    expect(replies(result.messages)).toEqual({
      c1: ['success', 'Plan initialised with 2 steps.'],
      c2: ['success', 'Queued 1 step for addition.'],
      c3: ['success', 'Step S001 marked as done.'],
      c4: ['success', 'Step S003 marked as in_progress.'],
      c5: ['error', expect.stringMatching(/^Tool validation failed: .*S009/)],
    });
    expect(result.plan?.objective).toBe('Ship');
    expect(statuses(result.plan)).toEqual(['done', 'pending', 'in_progress']);
  });

  it('keeps each turn whole when more threads run planning turns at once than the turn cache holds', async () => {
    // 80 concurrent turns, more than the 64 kept: none may lose its session mid-turn.
    const checkpointer = new MemorySaver();
    const middleware = planningMiddleware();
    const runs = Array.from({ length: 80 }, async (_, index) => {
      const model = new ScriptedChatModel([
        turn(setup(`a${index}`, `Ship ${index}`, ['Build', 'Test']), mark(`b${index}`, 'S001')),
        new AIMessage('Planned.'),
      ]);
      const agent = createAgent({ model, middleware: [middleware], checkpointer });
      const result = await agent.invoke(
        { messages: [new HumanMessage('Plan.')] },
        { configurable: { thread_id: `busy-${index}` } },
      );
      return [statuses(result.plan), Object.values(replies(result.messages)).map(([s]) => s)];
    });
    for (const outcome of await Promise.all(runs))
      expect(outcome).toEqual([
        ['done', 'pending'],
        ['success', 'success'],
      ]);
  });

  it('refuses arguments encoded twice (a JSON string holding an object) without a plan edit, as every host does', async () => {
    const twice = JSON.stringify({ objective: 'Ship', initial_steps: [{ title: 'Build' }] });
    const model = new ScriptedChatModel([
      turn(call('c1', 'planning_setup_plan', twice as unknown as Record<string, unknown>)),
      new AIMessage('Stopped.'),
    ]);
    const result = await agentWith(model).invoke(
      { messages: [new HumanMessage('Plan the release.')] },
      { configurable: { thread_id: 'twice' } },
    );
    expect(replies(result.messages)).toEqual({
      c1: ['error', 'Tool validation failed: Arguments must be a JSON object, got a string.'],
    });
    expect(result.plan ?? null).toBeNull();
  });

  it('puts the section into the system prompt and the reminder last, after the cached prefix', async () => {
    const model = new ScriptedChatModel([
      turn(setup('s1', 'Ship', ['Build'])),
      new AIMessage('Planned.'),
    ]);
    const agent = agentWith(model);
    await agent.invoke(
      { messages: [new HumanMessage('Plan.')] },
      { configurable: { thread_id: 'prompt' } },
    );
    const [first, second] = model.requests;
    expect(first?.[0]).toBeInstanceOf(SystemMessage);
    expect(first?.[0]?.text).toBe('You are a planner.\n\n## Planning\n\nKeep a plan.');
    // No plan yet: no reminder.
    expect(first?.at(-1)?.content).toBe('Plan.');
    // The system message is byte-identical across calls; the reminder comes last.
    expect(second?.[0]?.text).toBe(first?.[0]?.text);
    expect(second?.at(-1)).toBeInstanceOf(HumanMessage);
    expect(second?.at(-1)?.content).toBe('<plan>Ship: pending</plan>');
    expect(second?.at(-2)).toBeInstanceOf(ToolMessage);
  });

  it('brings the plan back after a resume, shows it in getState, and forks from an earlier checkpoint with the plan as it was', async () => {
    const model = new ScriptedChatModel([
      turn(setup('r1', 'Ship', ['Build', 'Test'])),
      new AIMessage('Planned.'),
      turn(mark('r2', 'S001')),
      new AIMessage('Built.'),
      new AIMessage('Forked.'),
    ]);
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: 'resume' } };
    await agentWith(model, checkpointer).invoke({ messages: [new HumanMessage('Plan.')] }, config);
    // A new agent on the same checkpointer: the plan comes back from the checkpoint.
    const agent = agentWith(model, checkpointer);
    const before = await agent.graph.getState(config);
    expect(statuses(before.values.plan)).toEqual(['pending', 'pending']);
    const earlier = before.config.configurable?.['checkpoint_id'] as string;
    await agent.invoke({ messages: [new HumanMessage('Build it.')] }, config);
    expect(model.requests[2]?.at(-1)?.content).toBe('<plan>Ship: pending,pending</plan>');
    const after = await agent.graph.getState(config);
    expect(statuses(after.values.plan)).toEqual(['done', 'pending']);
    // Fork: run on from the checkpoint before S001 was marked.
    const fork = await agent.invoke(
      { messages: [new HumanMessage('Start over from here.')] },
      { configurable: { thread_id: 'resume', checkpoint_id: earlier } },
    );
    expect(model.requests[4]?.at(-1)?.content).toBe('<plan>Ship: pending,pending</plan>');
    expect(statuses(fork.plan)).toEqual(['pending', 'pending']);
    // The original branch keeps its plan at its own checkpoint.
    const history: Plan[] = [];
    for await (const snapshot of agent.graph.getStateHistory(config))
      if (snapshot.values.plan) history.push(snapshot.values.plan as Plan);
    expect(history.some((plan) => plan.steps[0]?.status === 'done')).toBe(true);
  });

  it('answers a planning call on a plan channel the Plan schema refuses (a damaged checkpoint) as a failed call, writing nothing', async () => {
    const damagedValues: unknown[] = [
      { objective: 'Ship', status: 'active', steps: 'none' },
      'a plan',
      [{ step_id: 'S001' }],
    ];
    for (const [index, damaged] of damagedValues.entries()) {
      const model = new ScriptedChatModel([
        turn(setup('d1', 'Ship', ['Build'])),
        new AIMessage('Planned.'),
        turn(mark('d2', 'S001')),
        new AIMessage('Noted.'),
      ]);
      const checkpointer = new MemorySaver();
      const agent = agentWith(model, checkpointer);
      const config = { configurable: { thread_id: `damaged-${index}` } };
      await agent.invoke({ messages: [new HumanMessage('Plan.')] }, config);
      // The checkpoint as a damaged store or a hand edit leaves it, written through the saver.
      const saved = await checkpointer.getTuple(config);
      if (saved?.metadata === undefined) throw new Error('no checkpoint');
      const checkpoint = structuredClone(saved.checkpoint);
      checkpoint.channel_values['plan'] = damaged;
      await checkpointer.put(saved.config, checkpoint, saved.metadata);
      const result = await agent.invoke({ messages: [new HumanMessage('Build it.')] }, config);
      const [status, content] = replies(result.messages)['d2'] ?? [];
      expect(status).toBe('error');
      expect(content).toMatch(
        /^Tool 'planning_mark_step' execution failed: Plan edit refused: not a plan: /,
      );
      expect(content?.length).toBeLessThan(2000);
      // No reminder was rendered from the damaged value, and nothing was written.
      expect(model.requests[2]?.at(-1)?.content).not.toMatch(/^<plan>/);
      expect((await agent.graph.getState(config)).values.plan).toEqual(damaged);
      // A valid value repairs the thread.
      await agent.graph.updateState(config, { plan: null });
      expect((await agent.graph.getState(config)).values.plan).toBeNull();
    }
  });

  it('applies a plan edit given to updateState through the reducers, and refuses a bad one', async () => {
    const model = new ScriptedChatModel([
      turn(setup('u1', 'Ship', ['Build'])),
      new AIMessage('Planned.'),
    ]);
    const agent = agentWith(model);
    const config = { configurable: { thread_id: 'update' } };
    await agent.invoke({ messages: [new HumanMessage('Plan.')] }, config);
    await agent.graph.updateState(config, {
      plan: { op: 'add_step', value: { steps: [{ title: 'Release' }] } },
    });
    expect(
      (await agent.graph.getState(config)).values.plan?.steps.map(
        (s: { title: string }) => s.title,
      ),
    ).toEqual(['Build', 'Release']);
    const refused = await agent.graph
      .updateState(config, {
        plan: { op: 'mark_step', value: { step_id: 'S042', status: 'done' } },
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(PlanEditError.isInstance(refused)).toBe(true);
    expect((refused as PlanEditError).code).toBe('plan_edit_refused');
    // A whole plan replaces the plan only when the Plan schema accepts it: this one claims to
    // be completed with a step still pending.
    const raw = await agent.graph
      .updateState(config, {
        plan: {
          objective: 'Hijack',
          status: 'completed',
          steps: [{ step_id: 'S001', title: 'X', details: null, status: 'pending', notes: [] }],
        },
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(PlanEditError.isInstance(raw)).toBe(true);
    expect((raw as PlanEditError).code).toBe('plan_edit_refused');
    const unknownOp = await agent.graph
      .updateState(config, { plan: { op: 'drop_table', value: {} } as never })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((unknownOp as PlanEditError).code).toBe('plan_edit_invalid');
    const notAnObject = await agent.graph.updateState(config, { plan: 'S001 done' as never }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(PlanEditError.isInstance(notAnObject)).toBe(true);
    expect((notAnObject as PlanEditError).code).toBe('plan_edit_invalid');
    // No refusal changed the plan.
    expect(statuses((await agent.graph.getState(config)).values.plan)).toEqual([
      'pending',
      'pending',
    ]);
  });
  it('refuses an agent tool named like a planning tool at the first model call, before the model runs', async () => {
    const model = new ScriptedChatModel([new AIMessage('never sent')]);
    let ran = 0;
    const impostor = langChainTool(
      () => {
        ran++;
        return 'marked a spreadsheet row';
      },
      {
        name: 'planning_mark_step',
        description: 'Marks a row in my spreadsheet.',
        schema: z.object({ row: z.number() }),
      },
    );
    const search = langChainTool(() => 'found', {
      name: 'search',
      description: 'Searches.',
      schema: z.object({ query: z.string() }),
    });
    const agent = createAgent({
      model,
      tools: [search, impostor],
      middleware: [planningMiddleware()],
      checkpointer: new MemorySaver(),
    });
    let thrown: unknown;
    try {
      await agent.invoke(
        { messages: [new HumanMessage('Plan it.')] },
        { configurable: { thread_id: 'dup' } },
      );
    } catch (error) {
      thrown = error;
    }
    // LangChain wraps what a middleware throws in its MiddlewareError, with the message and name
    // kept and the error itself as the cause.
    expect(thrown).toMatchObject({
      name: 'AdapterError',
      message: expect.stringContaining('tools[5] and tools[1] are both named'),
    });
    const cause = (thrown as Error).cause;
    expect(AdapterError.isInstance(cause)).toBe(true);
    // The agent's tools come first, then the middleware's six: the planning one is tools[5].
    expect(cause).toMatchObject({
      code: 'tools_invalid',
      field: 'tools[5].name',
      message:
        'planningMiddleware: tools[5] and tools[1] are both named "planning_mark_step": tool names must be unique, since the model calls a tool by its name.',
    });
    expect(model.requests).toHaveLength(0);
    expect(ran).toBe(0);
  });

  it('refuses a tool another middleware adds under a planning tool\u2019s name', async () => {
    const stray = langChainTool(() => 'read', {
      name: 'planning_read_plan',
      description: 'Reads something else.',
      schema: z.object({}),
    });
    const other = createMiddleware({ name: 'other', tools: [stray] });
    const agent = createAgent({
      model: new ScriptedChatModel([new AIMessage('never sent')]),
      middleware: [other, planningMiddleware()],
    });
    await expect(agent.invoke({ messages: [new HumanMessage('Plan it.')] })).rejects.toMatchObject({
      cause: { code: 'tools_invalid', field: 'tools[6].name' },
    });
  });

  it('refuses options that would add a tool under a name another tool has, when it is built', () => {
    // A second copy of batch() under another name adds planning_apply_batch again.
    const again = { ...batch(), name: 'batch_again' };
    let thrown: unknown;
    try {
      planningMiddleware({ extensions: [batch(), again] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: 'argument_invalid',
      message: expect.stringContaining(
        'options.extensions (batch_again) adds planning_apply_batch, which another tool already is',
      ),
    });
  });

  it('refuses an unknown option in the words every plankit function uses', () => {
    expect(() => planningMiddleware({ reminders: reminder } as never)).toThrow(
      'planningMiddleware: options.reminders is not an option.',
    );
    expect(() => planningMiddleware({ clock: 5 } as never)).toThrow(
      'planningMiddleware: options.clock must be a function.',
    );
    expect(() => planningMiddleware({ extensions: [{}] } as never)).toThrow(
      'planningMiddleware: options.extensions[0] must be a planning extension, such as batch() from @plankit/core/plan-model.',
    );
    expect(() => planningMiddleware({ history: true } as never)).toThrow(
      /planningMiddleware: options.history moved to an extension/,
    );
  });
  it('checks now and orderTimeoutMs as the host adapters do', () => {
    expect(() => planningMiddleware({ now: 5 } as never)).toThrow(
      'planningMiddleware: options.now is not an option; a time source is options.clock.',
    );
    for (const orderTimeoutMs of [-1, 2 ** 31, Number.NaN, '100']) {
      expect(() => planningMiddleware({ orderTimeoutMs } as never)).toThrow(
        'planningMiddleware: options.orderTimeoutMs must be a number of milliseconds from 0 to 2^31 - 1.',
      );
    }
    expect(() => planningMiddleware({ orderTimeoutMs: 0, clock: () => 1 })).not.toThrow();
  });

  it('checks the channel\u2019s plan once for the reminder, not on every model call', () => {
    const middleware = planningMiddleware({ reminder });
    const plan = applyPlanEdit(null, {
      op: 'setup_plan',
      value: { objective: 'Ship', initial_steps: [{ title: 'Build' }] },
    });
    const parse = vi.spyOn(Plan, 'safeParse');
    try {
      const texts: unknown[] = [];
      for (let call = 0; call < 3; call++) {
        middleware.wrapModelCall?.(
          {
            systemMessage: new SystemMessage('s'),
            messages: [],
            tools: [],
            state: { plan },
          } as never,
          ((request: { messages: BaseMessage[] }) => {
            texts.push(request.messages.at(-1)?.content);
            return new AIMessage('ok');
          }) as never,
        );
      }
      expect(texts).toEqual(Array(3).fill('<plan>Ship: pending</plan>'));
      expect(parse.mock.calls.filter(([value]) => value === plan)).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });
});
