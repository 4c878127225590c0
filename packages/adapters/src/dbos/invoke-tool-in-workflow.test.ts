import { createPlanningTools, Plan, PlankitError, Session, selectLatest } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { invokeToolInWorkflow } from './invoke-tool-in-workflow.ts';

describe('invokeToolInWorkflow outside a workflow', () => {
  it('is invokeTool: the call reduces into the session', async () => {
    const session = new Session({ sessionId: 's' });
    const tools = createPlanningTools(session);
    const result = await invokeToolInWorkflow(
      tools.planning_setup_plan,
      { objective: 'ship v2', initial_steps: [{ title: 'build' }] },
      { session },
    );
    expect(result.success).toBe(true);
    expect(selectLatest(session, Plan)?.steps.map((step) => step.title)).toEqual(['build']);
  });

  it('returns a refusal as a value and leaves the session as it was', async () => {
    const session = new Session({ sessionId: 's' });
    const tools = createPlanningTools(session);
    const before = session.snapshot();
    const result = await invokeToolInWorkflow(
      tools.planning_mark_step,
      { step_id: 1 },
      { session },
    );
    expect(result.success).toBe(false);
    expect(session.snapshot()).toEqual(before);
  });

  it('refuses an unknown option by name', async () => {
    const session = new Session({ sessionId: 's' });
    const tools = createPlanningTools(session);
    const call = invokeToolInWorkflow(tools.planning_read_plan, {}, {
      session,
      now: 1,
    } as never);
    await expect(call).rejects.toSatisfy(
      (error: unknown) => PlankitError.isInstance(error) && /options\.now/.test(String(error)),
    );
  });
});
