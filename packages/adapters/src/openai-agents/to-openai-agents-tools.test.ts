import { Agent, type FunctionTool, type RunContext, Runner, RunState } from '@openai/agents';
import {
  approvalRequired,
  type InteractionPolicy,
  InteractionPolicy as Policy,
} from '@plankit/controller/policy';
import { createPlanningTools, registerPlanningReducers, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool } from '../sessions/create-session-pool.ts';
import { SessionResolveError } from '../sessions/session-resolve-error.ts';
import { planOf, serialPlan } from '../sessions/testing/pool-helpers.ts';
import { OpenAIAgentsToolError } from './openai-agents-tool-error.ts';
import { planningApprovalCheckpoint } from './planning-approval-checkpoint.ts';
import { ScriptedModel, type ScriptedTurn } from './testing/scripted-model.ts';
import { toOpenAIAgentsTools } from './to-openai-agents-tools.ts';

interface Chat {
  readonly conversationId?: string;
}

const TOOLS = createPlanningTools(new Session());
const SETUP = { objective: 'ship v2', initial_steps: [{ title: 'draft' }, { title: 'review' }] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fresh(): Session {
  const session = new Session({ sessionId: 'one' });
  registerPlanningReducers(session);
  return session;
}

function agentOf(turns: readonly ScriptedTurn[], tools: FunctionTool<Chat>[]) {
  const model = new ScriptedModel(turns);
  const agent = new Agent<Chat>({ name: 'planner', model, tools });
  return { model, agent };
}

function policy(approval_policy: InteractionPolicy['approval_policy']): InteractionPolicy {
  return Policy.parse({ approval_policy });
}

const byPolicy =
  (rules: InteractionPolicy) =>
  ({ tool }: { readonly tool: (typeof TOOLS)[number] }) => {
    const checkpoint = planningApprovalCheckpoint(tool);
    return checkpoint !== undefined && approvalRequired(rules, checkpoint);
  };

describe('toOpenAIAgentsTools', () => {
  // Ported from openai-agents-js packages/agents-core/test/agentScenarios.test.ts
  // 'runs a basic tool call and uses the tool output'.
  it('runs a basic tool call and uses the tool output', async () => {
    const session = fresh();
    const { model, agent } = agentOf(
      [[{ name: 'planning_setup_plan', args: { ...SETUP }, callId: 'c1' }], 'planned'],
      toOpenAIAgentsTools<Chat>(TOOLS, { session }),
    );
    const result = await new Runner().run(agent, 'plan it');
    expect(result.finalOutput).toBe('planned');
    expect(model.requests).toHaveLength(2);
    expect(model.outputs().get('c1')).toBe('Plan initialised with 2 steps.');
    expect(planOf(session)?.objective).toBe('ship v2');
  });

  it('sends the planning tools strict, with plankit’s strict schemas, and restores nulls', async () => {
    const session = fresh();
    const { model, agent } = agentOf(
      [
        [
          { name: 'planning_setup_plan', args: { ...SETUP }, callId: 'c1' },
          // Strict mode makes the model send null for the optional note.
          {
            name: 'planning_mark_step',
            args: { step_id: 'S001', status: 'done', note: null },
            callId: 'c2',
          },
        ],
        'ok',
      ],
      toOpenAIAgentsTools<Chat>(TOOLS, { session }),
    );
    await new Runner().run(agent, 'go');
    const sent = model.requests[0]?.tools ?? [];
    expect(sent).toHaveLength(6);
    for (const tool of sent) {
      expect(tool).toMatchObject({ type: 'function', strict: true });
      if (tool.type !== 'function') continue;
      expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
    }
    expect(model.outputs().get('c2')).toBe('Step S001 marked as done.');
    expect(planOf(session)?.steps[0]).toMatchObject({ status: 'done', notes: [] });
  });

  it('sends non-strict tools with their own schema when strict is off', async () => {
    const { model, agent } = agentOf(
      ['ok'],
      toOpenAIAgentsTools<Chat>(TOOLS, { session: fresh(), strict: false }),
    );
    await new Runner().run(agent, 'go');
    for (const tool of model.requests[0]?.tools ?? [])
      expect(tool).toMatchObject({ strict: false });
  });

  it('hands a refusal to the model as plankit’s text, through the SDK’s errorFunction', async () => {
    const session = fresh();
    const { model, agent } = agentOf(
      [
        [
          { name: 'planning_mark_step', args: { step_id: 'S001', status: 'done', note: null } },
          { name: 'planning_setup_plan', args: { objective: 42, initial_steps: [] }, callId: 'c2' },
        ],
        'ok',
      ],
      toOpenAIAgentsTools<Chat>(TOOLS, { session }),
    );
    await new Runner().run(agent, 'go');
    const outputs = [...model.outputs().values()];
    expect(outputs).toHaveLength(2);
    for (const text of outputs) {
      expect(text.startsWith('Tool validation failed: ')).toBe(true);
      expect(text.length).toBeLessThan(2000);
    }
    expect(planOf(session)).toBeUndefined();
  });

  it('throws refusals as OpenAIAgentsToolError, whose text is plankit’s alone', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const [read] = toOpenAIAgentsTools([TOOLS.planning_read_plan], {
      session: pool.resolver((run: RunContext<Chat>) => run.context.conversationId),
    });
    const runContext = { context: {} } as RunContext<Chat>;
    const caught = await (
      read as unknown as { invoke: (c: unknown, i: string) => Promise<unknown> }
    )
      .invoke(runContext, '{}')
      .then(String);
    expect(caught).toMatch(/^Tool validation failed: .*names no conversation/);
    const error = new OpenAIAgentsToolError(
      new SessionResolveError('session_unresolved', 'no conversation'),
      'Tool validation failed: no conversation',
    );
    expect(String(error)).toBe('Tool validation failed: no conversation');
    expect(OpenAIAgentsToolError.isInstance(error)).toBe(true);
    expect(error.code).toBe('session_unresolved');
    await pool.close();
  });

  it('refuses bad tool lists', () => {
    expect(() => toOpenAIAgentsTools(null as never, { session: fresh() })).toThrow(
      /tools_invalid|array/,
    );
  });
});

describe('sessions from RunContext', () => {
  it('keeps one plan per conversation when two runs go concurrently', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const tools = toOpenAIAgentsTools<Chat>(TOOLS, {
      session: pool.resolver((run: RunContext<Chat>) => run.context.conversationId),
    });
    const runOne = async (id: string) => {
      const { agent } = agentOf(
        [
          [
            {
              name: 'planning_setup_plan',
              args: { objective: `plan ${id}`, initial_steps: [{ title: id }] },
            },
          ],
          [{ name: 'planning_mark_step', args: { step_id: 'S001', status: 'done', note: null } }],
          'done',
        ],
        tools,
      );
      return new Runner().run(agent, 'go', { context: { conversationId: id } });
    };
    await Promise.all([runOne('alpha'), runOne('beta')]);
    for (const id of ['alpha', 'beta']) {
      const got = await pool.get(id);
      if (!got.ok) throw got.error;
      expect(planOf(got.value)).toEqual({
        objective: `plan ${id}`,
        status: 'completed',
        steps: [{ step_id: 'S001', title: id, details: null, status: 'done', notes: [] }],
      });
    }
    await pool.close();
  });

  it('refuses a run whose context names no conversation (session_unresolved), with no shared default', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store });
    const { model, agent } = agentOf(
      [[{ name: 'planning_setup_plan', args: { ...SETUP }, callId: 'c1' }], 'ok'],
      toOpenAIAgentsTools<Chat>(TOOLS, {
        session: pool.resolver((run: RunContext<Chat>) => run.context.conversationId),
      }),
    );
    await new Runner().run(agent, 'go', { context: {} });
    expect(model.outputs().get('c1')).toMatch(/^Tool validation failed: .*names no conversation/);
    expect(pool.size).toBe(0);
    await pool.close();
  });

  it('refuses a hostile conversation id before it reaches the store', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const { model, agent } = agentOf(
      [[{ name: 'planning_read_plan', args: {}, callId: 'c1' }], 'ok'],
      toOpenAIAgentsTools<Chat>(TOOLS, {
        session: pool.resolver((run: RunContext<Chat>) => run.context.conversationId),
      }),
    );
    await new Runner().run(agent, 'go', { context: { conversationId: '../etc/passwd' } });
    expect(model.outputs().get('c1')).toMatch(/^Tool validation failed: /);
    expect(pool.size).toBe(0);
    await pool.close();
  });
});

describe('model order', () => {
  it('applies setup then mark in the response’s order when the first call is held back', async () => {
    const session = fresh();
    let resolved = 0;
    const { model, agent } = agentOf(
      [
        [
          { name: 'planning_setup_plan', args: { ...SETUP }, callId: 'c1' },
          {
            name: 'planning_mark_step',
            args: { step_id: 'S001', status: 'done', note: null },
            callId: 'c2',
          },
        ],
        'ok',
      ],
      toOpenAIAgentsTools<Chat>(TOOLS, {
        // An async resolver that holds the first call back, so the mark reaches the tool first.
        session: async () => {
          if (resolved++ === 0) await sleep(40);
          return session;
        },
      }),
    );
    await new Runner().run(agent, 'go');
    expect(model.outputs().get('c2')).toBe('Step S001 marked as done.');
    expect(planOf(session)?.steps[0]?.status).toBe('done');
  });

  it('applies 20 calls of one response in emission order whatever order they complete in', async () => {
    const session = fresh();
    const calls: ScriptedTurn = [
      {
        name: 'planning_setup_plan',
        args: { objective: 'many', initial_steps: [{ title: 's0' }] },
      },
      ...Array.from({ length: 19 }, (_, i) => ({
        name: 'planning_add_step',
        args: { steps: [{ title: `s${i + 1}`, details: null }] },
      })),
    ];
    const { agent } = agentOf(
      [calls, 'ok'],
      toOpenAIAgentsTools<Chat>(TOOLS, {
        session: async () => {
          await sleep(Math.floor(Math.random() * 20));
          return session;
        },
      }),
    );
    await new Runner().run(agent, 'go');
    expect(planOf(session)?.steps.map((step) => step.title)).toEqual(
      Array.from({ length: 20 }, (_, i) => `s${i}`),
    );
  });

  it('runs calls one at a time with toolExecution.maxFunctionToolConcurrency 1', async () => {
    const session = fresh();
    const { agent } = agentOf(
      [
        [
          { name: 'planning_setup_plan', args: { ...SETUP } },
          {
            name: 'planning_mark_step',
            args: { step_id: 'S002', status: 'blocked', note: 'waits' },
          },
        ],
        'ok',
      ],
      toOpenAIAgentsTools<Chat>(TOOLS, { session }),
    );
    await new Runner({ toolExecution: { maxFunctionToolConcurrency: 1 } }).run(agent, 'go');
    expect(planOf(session)?.steps[1]).toMatchObject({ status: 'blocked', notes: ['waits'] });
  });
});

describe('approvals', () => {
  it('maps the interaction policy to checkpoints', () => {
    const names = (rules: InteractionPolicy) =>
      TOOLS.filter((tool) => byPolicy(rules)({ tool })).map((tool) => tool.name);
    expect(names(policy('single_final'))).toEqual([]);
    expect(names(policy('milestone_approvals'))).toEqual(['planning_clear_plan']);
    expect(names(policy('strict_every_step'))).toEqual([
      'planning_setup_plan',
      'planning_add_step',
      'planning_update_step',
      'planning_mark_step',
      'planning_clear_plan',
    ]);
  });

  // Ported from openai-agents-js packages/agents-core/test/agentScenarios.test.ts
  // 'surfaces tool approval interruptions when a tool needs approval'.
  it('surfaces tool approval interruptions when a tool needs approval', async () => {
    const session = fresh();
    const { agent } = agentOf(
      [[{ name: 'planning_setup_plan', args: { ...SETUP } }]],
      toOpenAIAgentsTools<Chat>(TOOLS, {
        session,
        needsApproval: byPolicy(policy('strict_every_step')),
      }),
    );
    const result = await new Runner().run(agent, 'go');
    expect(result.interruptions).toHaveLength(1);
    expect(result.interruptions[0]?.name).toBe('planning_setup_plan');
    expect(planOf(session)).toBeUndefined();
  });

  it('does not hold the calls after a call that waits for approval', async () => {
    const session = fresh();
    const { agent } = agentOf(
      [
        [
          { name: 'planning_setup_plan', args: { ...SETUP } },
          { name: 'planning_clear_plan', args: {} },
          { name: 'planning_add_step', args: { steps: [{ title: 'ship', details: null }] } },
        ],
      ],
      toOpenAIAgentsTools<Chat>(TOOLS, {
        session,
        needsApproval: byPolicy(policy('milestone_approvals')),
        // Far beyond the test's own time-out: a wait for the interrupted clear would fail it.
        orderTimeoutMs: 60_000,
      }),
    );
    const result = await new Runner().run(agent, 'go');
    expect(result.interruptions.map((item) => item.name)).toEqual(['planning_clear_plan']);
    expect(planOf(session)?.steps.map((step) => step.title)).toEqual(['draft', 'review', 'ship']);
  });

  // Ported from openai-agents-js packages/agents-core/test/agentScenarios.test.ts
  // 'resumes an interrupted turn after tool approval without calling the model again', with
  // the resume through RunState.toString / RunState.fromString ('resumes from serialized
  // RunState' in packages/agents-core/test/run.test.ts) and the plan in a store-backed pool.
  it('resumes through a serialised RunState with the plan exactly as before plus the approved call', async () => {
    const store = new MemoryStore();
    const resolver = (pool: ReturnType<typeof createSessionPool>) =>
      pool.resolver((run: RunContext<Chat>) => run.context.conversationId);
    const needsApproval = byPolicy(policy('milestone_approvals'));
    const script: ScriptedTurn[] = [
      [
        { name: 'planning_setup_plan', args: { ...SETUP } },
        {
          name: 'planning_mark_step',
          args: { step_id: 'S001', status: 'in_progress', note: null },
        },
      ],
      [
        { name: 'planning_add_step', args: { steps: [{ title: 'ship', details: null }] } },
        { name: 'planning_clear_plan', args: {}, callId: 'clear' },
      ],
      'cleared',
    ];
    const firstPool = createSessionPool({ store });
    const first = agentOf(
      script,
      toOpenAIAgentsTools<Chat>(TOOLS, { session: resolver(firstPool), needsApproval }),
    );
    const interrupted = await new Runner().run(first.agent, 'go', {
      context: { conversationId: 'conv-1' },
    });
    expect(interrupted.interruptions.map((item) => item.name)).toEqual(['planning_clear_plan']);
    const before = await serialPlan([
      { tool: 'planning_setup_plan', params: SETUP },
      { tool: 'planning_mark_step', params: { step_id: 'S001', status: 'in_progress' } },
      { tool: 'planning_add_step', params: { steps: [{ title: 'ship' }] } },
    ]);
    const held = await firstPool.get('conv-1');
    if (!held.ok) throw held.error;
    expect(planOf(held.value)).toEqual(before);
    const saved = interrupted.state.toString();
    // The process ends: the pool flushes to the store and forgets the session.
    expect((await firstPool.close()).ok).toBe(true);

    const secondPool = createSessionPool({ store });
    const second = agentOf(
      script.slice(2),
      toOpenAIAgentsTools<Chat>(TOOLS, { session: resolver(secondPool), needsApproval }),
    );
    const state = await RunState.fromString(second.agent, saved);
    for (const item of state.getInterruptions()) state.approve(item);
    const resumed = await new Runner().run(second.agent, state);
    expect(resumed.finalOutput).toBe('cleared');
    expect(second.model.requests).toHaveLength(1);
    expect(second.model.outputs().get('clear')).toBe('Plan marked as abandoned.');
    const after = await secondPool.get('conv-1');
    if (!after.ok) throw after.error;
    expect(planOf(after.value)).toEqual(
      await serialPlan([
        { tool: 'planning_setup_plan', params: SETUP },
        { tool: 'planning_mark_step', params: { step_id: 'S001', status: 'in_progress' } },
        { tool: 'planning_add_step', params: { steps: [{ title: 'ship' }] } },
        { tool: 'planning_clear_plan', params: {} },
      ]),
    );
    await secondPool.close();
  });

  // Ported from openai-agents-js packages/agents-core/test/run.test.ts
  // 'returns static final output when tool execution is rejected' (the rejection reaches the
  // model as the call's output and the tool does not run).
  it('leaves the plan unchanged when the call is rejected after a resume', async () => {
    const session = fresh();
    const script: ScriptedTurn[] = [
      [{ name: 'planning_setup_plan', args: { ...SETUP } }],
      [{ name: 'planning_clear_plan', args: {}, callId: 'clear' }],
      'kept',
    ];
    const options = { session, needsApproval: byPolicy(policy('milestone_approvals')) };
    const first = agentOf(script, toOpenAIAgentsTools<Chat>(TOOLS, options));
    const interrupted = await new Runner().run(first.agent, 'go');
    const before = planOf(session);
    const second = agentOf(script.slice(2), toOpenAIAgentsTools<Chat>(TOOLS, options));
    const state = await RunState.fromString(second.agent, interrupted.state.toString());
    for (const item of state.getInterruptions())
      state.reject(item, { message: 'propose changes: keep the plan' });
    const resumed = await new Runner().run(second.agent, state);
    expect(resumed.finalOutput).toBe('kept');
    expect(second.model.outputs().get('clear')).toBe('propose changes: keep the plan');
    expect(planOf(session)).toEqual(before);
  });
});
