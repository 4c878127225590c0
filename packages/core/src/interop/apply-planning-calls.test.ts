import { describe, expect, it } from 'vitest';
import { PlankitError } from '../plankit-error.ts';
import { createPlanningTools } from '../planning/create-planning-tools.ts';
import { history } from '../planning/history/history.ts';
import { planHistory } from '../planning/history/plan-history.ts';
import { Plan } from '../planning/plan.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { applyPlanningCalls } from './apply-planning-calls.ts';
import { fromCodexPlan } from './codex-plan.ts';
import type { PlanningCall } from './planning-call.ts';
import { planWith } from './testing/plan-with.ts';

describe('applyPlanningCalls', () => {
  it('runs the calls in order and returns the plan they leave', async () => {
    const { session, tools } = await planWith([{ title: 'a' }]);
    const calls: PlanningCall[] = [
      { tool: 'planning_add_step', args: { steps: [{ title: 'b' }] } },
      { tool: 'planning_mark_step', args: { step_id: 'S002', status: 'in_progress' } },
    ];
    const applied = await applyPlanningCalls(tools, calls, { session });
    expect(applied).toEqual({ ok: true, value: selectLatest(session, Plan) });
    expect(selectLatest(session, Plan)?.steps.map((s) => s.status)).toEqual([
      'pending',
      'in_progress',
    ]);
  });

  it('publishes nothing on the session when a call is refused', async () => {
    const { session, tools } = await planWith([{ title: 'a' }]);
    const seen: string[] = [];
    session.bus.subscribe('ToolInvoked', (event) => {
      seen.push(event.tool);
    });
    const before = session.snapshot();
    const calls: PlanningCall[] = [
      { tool: 'planning_mark_step', args: { step_id: 'S001', status: 'done' } },
      { tool: 'planning_mark_step', args: { step_id: 'S404', status: 'done' } },
    ];
    const applied = await applyPlanningCalls(tools, calls, { session });
    expect(applied.ok ? undefined : applied.error.code).toBe('step_unknown');
    expect(seen).toEqual([]);
    expect(session.snapshot()).toBe(before);
  });

  it('makes no call and returns the plan for an empty list of calls', async () => {
    const { session, tools } = await planWith([{ title: 'a' }]);
    const before = session.snapshot();
    expect(await applyPlanningCalls(tools, [], { session })).toEqual({
      ok: true,
      value: selectLatest(session, Plan),
    });
    expect(session.snapshot()).toBe(before);
  });

  it('adds an explanation to every call, which tools with history() record', async () => {
    const session = new Session({ sessionId: 'explained' });
    const tools = createPlanningTools(session, { extensions: [history()] });
    const write = fromCodexPlan(undefined, { plan: [{ step: 'a', status: 'in_progress' }] });
    if (!write.ok) throw write.error;
    const applied = await applyPlanningCalls(tools, write.value.calls, {
      session,
      explanation: 'Synced from Codex.',
    });
    expect(applied.ok).toBe(true);
    expect(planHistory(session).map((revision) => revision.explanation)).toEqual([
      'Synced from Codex.',
      'Synced from Codex.',
    ]);
  });

  it('refuses programmer errors: unknown options, no session, a missing tool', async () => {
    const { session, tools } = await planWith([]);
    const call: PlanningCall = { tool: 'planning_add_step', args: { steps: [{ title: 'b' }] } };
    const refused = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(PlankitError.isInstance(error)).toBe(true);
      return (error as PlankitError).message;
    };
    expect(
      await refused(() => applyPlanningCalls(tools, [call], { session, when: 1 } as never)),
    ).toBe('applyPlanningCalls: options.when is not an option.');
    expect(await refused(() => applyPlanningCalls(tools, [call], {} as never))).toContain(
      'options.session must be a Session',
    );
    expect(
      await refused(() =>
        applyPlanningCalls({ ...tools, planning_add_step: undefined } as never, [call], {
          session,
        }),
      ),
    ).toContain('tools.planning_add_step must be a planning tool');
  });
});
