import type { AnyTool } from '@plankit/core';
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { batch, dependencies, history, owners } from '@plankit/core/plan-model';
import { renderPlanReminder } from '@plankit/prompt';
import { describe, expect, it } from 'vitest';
import { planReminderStep } from './ai-sdk/plan-reminder-step.ts';
import { toAISDKTools } from './ai-sdk/to-ai-sdk-tools.ts';
import { isStrict } from './host/host-tool-options.ts';
import { planningApprovalCheckpoint } from './openai-agents/planning-approval-checkpoint.ts';
import { claudeSdk, HOSTS } from './testing/host-runs.ts';
import { PLAN_MODEL_CASES, workCase } from './testing/plan-model-cases.ts';

// Every opt-in plan-model option (dependencies, batch, history, owners) works end to
// end through every adapter, against the real host packages (testing/host-runs.ts): the tools
// are advertised (strict where the host has strict mode: every plankit planning tool is strict
// by default), a call applies, and a refusal comes back in the host's error form with
// plankit's text.

describe('every plan-model option through every adapter', () => {
  it('makes every opt-in planning tool strict by default, through its strict trait', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [batch(), owners({ agent: 'a' })],
    });
    for (const tool of [
      tools.planning_apply_batch,
      tools.planning_claim_step,
      tools.planning_release_step,
    ]) {
      expect(tool.traits.strict).toBe(true);
      // The adapters' one rule reads the trait when no strict option is given.
      expect(isStrict(tool, undefined)).toBe(true);
    }
    // A name is not a trait: a look-alike without the trait is not strict.
    expect(isStrict({ name: 'planning_apply_batch', traits: {} } as AnyTool, undefined)).toBe(
      false,
    );
  });

  it("AI SDK planReminderStep shows the Ready and Blocked lines with renderPlanReminder's dependencies option", async () => {
    const session = new Session();
    const { planning_setup_plan: setup } = createPlanningTools(session, {
      extensions: [dependencies()],
    });
    await invokeTool(
      setup,
      {
        objective: 'Ship',
        initial_steps: [{ title: 'Build' }, { title: 'Test', depends_on: ['S001'] }],
      },
      { session },
    );
    const step = planReminderStep({
      session,
      render: (plan) => renderPlanReminder(plan, { dependencies: true }),
    });
    const { messages } = await step({ messages: [{ role: 'user', content: 'go' }] });
    const last = messages?.at(-1);
    expect(last?.role).toBe('user');
    expect(String(last?.content)).toContain('Ready: S001\nBlocked: S002 (waiting on S001)');
  });

  it('AI SDK planReminderStep offers the batch tool before there is a plan, since a batch can set one up', async () => {
    const session = new Session();
    const tools = createPlanningTools(session, { extensions: [batch(), owners({ agent: 'a' })] });
    const step = planReminderStep({
      session,
      render: () => undefined,
      activeTools: { ...toAISDKTools([...tools], { session }), search_web: {} },
    });
    const before = await step({ messages: [] });
    expect(before.activeTools?.sort()).toEqual([
      'planning_apply_batch',
      'planning_setup_plan',
      'search_web',
    ]);
    // The model sets the plan up and finishes it in batches, as the docs recommend.
    const operations = [
      { op: 'setup', objective: 'Ship' },
      { op: 'add', title: 'Build' },
      { op: 'mark', step_id: 'S001', status: 'done' },
    ];
    const done = await invokeTool(tools.planning_apply_batch, { operations }, { session });
    expect(done.success).toBe(true);
    // A finished plan: the tools that work on open steps are gone, the rest stay.
    const after = await step({ messages: [] });
    expect(after.activeTools?.sort()).toEqual([
      'planning_apply_batch',
      'planning_clear_plan',
      'planning_read_plan',
      'planning_setup_plan',
      'search_web',
    ]);
  });

  it('OpenAI Agents planningApprovalCheckpoint asks before every change an extension tool makes', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [batch(), owners({ agent: 'a' }), history()],
    });
    const checkpoints = Object.fromEntries(
      tools.map((tool) => [tool.name, planningApprovalCheckpoint(tool)]),
    );
    expect(checkpoints).toEqual({
      planning_setup_plan: 'step',
      planning_add_step: 'step',
      planning_update_step: 'step',
      planning_mark_step: 'step',
      planning_clear_plan: 'milestone',
      planning_read_plan: undefined,
      planning_apply_batch: 'step',
      planning_claim_step: 'step',
      planning_release_step: 'step',
    });
    // Not a planning tool: the host decides.
    expect(planningApprovalCheckpoint({ name: 'search_web', traits: {} } as AnyTool)).toBe(
      undefined,
    );
  });

  it('OpenAI Agents planningApprovalCheckpoint reads the plan trait, never the name', () => {
    const tool = (name: string, traits: AnyTool['traits']) => ({ name, traits }) as AnyTool;
    // A planning_ name without the trait is not a planning tool.
    expect(planningApprovalCheckpoint(tool('planning_clear_plan', {}))).toBeUndefined();
    // Your own tools are placed by their trait, whatever their names.
    expect(planningApprovalCheckpoint(tool('wipe', { plan: 'clear' }))).toBe('milestone');
    expect(planningApprovalCheckpoint(tool('tick', { plan: 'edit' }))).toBe('step');
    expect(planningApprovalCheckpoint(tool('show', { plan: 'read' }))).toBeUndefined();
  });

  for (const [host, run] of Object.entries(HOSTS)) {
    for (const c of PLAN_MODEL_CASES) {
      const absent = host.startsWith('Claude Agent SDK') && claudeSdk === undefined;
      it.skipIf(absent)(`${c.option} through ${host}`, async () => {
        await workCase(run, c);
      });
    }
  }
});
