import { describe, expect, it } from 'vitest';
import { invokeTool } from '../../invoke-tool.ts';
import { batch, owners } from '../../plan-model.ts';
import { PlankitError } from '../../plankit-error.ts';
import { selectLatest } from '../../select-latest.ts';
import { Session } from '../../session.ts';
import { createPlanningTools, type PlanningToolsOptions } from '../create-planning-tools.ts';
import { Plan } from '../plan.ts';
import { ClaimStep, ReleaseStep } from './owner-commands.ts';

const setup = {
  objective: 'ship',
  initial_steps: [{ title: 'a' }, { title: 'b' }, { title: 'c' }],
};

async function shared() {
  const session = new Session({ sessionId: 'shared', clock: () => 1 });
  const lead = createPlanningTools(session, { extensions: [owners({ agent: 'lead' })] });
  const one = createPlanningTools(session, { extensions: [owners({ agent: 'worker-1' })] });
  const two = createPlanningTools(session, { extensions: [owners({ agent: 'worker-2' })] });
  await invokeTool(lead.planning_setup_plan, setup, { session });
  return { session, lead, one, two, plan: () => selectLatest(session, Plan) as Plan };
}

describe('owners option', () => {
  it('adds planning_claim_step and planning_release_step after the six (and the batch tool)', () => {
    const session = new Session();
    expect(
      createPlanningTools(session, { extensions: [owners({ agent: 'a' })] }).map((t) => t.name),
    ).toEqual([
      'planning_setup_plan',
      'planning_add_step',
      'planning_update_step',
      'planning_mark_step',
      'planning_clear_plan',
      'planning_read_plan',
      'planning_claim_step',
      'planning_release_step',
    ]);
    const withBatch = createPlanningTools(session, {
      extensions: [batch(), owners({ agent: 'a' })],
    });
    expect(withBatch.map((t) => t.name).slice(6)).toEqual([
      'planning_apply_batch',
      'planning_claim_step',
      'planning_release_step',
    ]);
  });

  it('claims an unclaimed step, keeps a second claim by the same agent, refuses another agent naming the holder', async () => {
    const { session, one, two, plan } = await shared();
    const claimed = await invokeTool(one.planning_claim_step, { step_id: ' S001 ' }, { session });
    expect(claimed).toMatchObject({ success: true, message: 'Step S001 claimed by worker-1.' });
    expect(plan().steps[0]?.owner).toBe('worker-1');
    const again = await invokeTool(one.planning_claim_step, { step_id: 'S001' }, { session });
    expect(again.message).toBe('Step S001 is already held by worker-1.');
    const before = session.snapshot();
    const refused = await invokeTool(two.planning_claim_step, { step_id: 'S001' }, { session });
    expect(refused.success).toBe(false);
    expect(refused.message).toBe(
      'Tool validation failed: Step S001 is held by worker-1; claim another step or ask worker-1 to release it.',
    );
    expect(session.snapshot()).toBe(before);
  });

  it('refuses a release by a non-owner and of an unclaimed step; the owner releases', async () => {
    const { session, one, two, plan } = await shared();
    await invokeTool(one.planning_claim_step, { step_id: 'S001' }, { session });
    const byOther = await invokeTool(two.planning_release_step, { step_id: 'S001' }, { session });
    expect(byOther.message).toBe(
      'Tool validation failed: Step S001 is held by worker-1; only worker-1 can release it.',
    );
    const unclaimed = await invokeTool(two.planning_release_step, { step_id: 'S002' }, { session });
    expect(unclaimed.message).toBe('Tool validation failed: Step S002 has no owner to release.');
    const released = await invokeTool(one.planning_release_step, { step_id: 'S001' }, { session });
    expect(released.message).toBe('Step S001 released by worker-1.');
    expect(plan().steps[0]).not.toHaveProperty('owner');
    expect(
      (await invokeTool(two.planning_claim_step, { step_id: 'S001' }, { session })).success,
    ).toBe(true);
  });

  it('refuses marking a step another agent holds; the holder marks it and keeps it', async () => {
    const { session, one, two, plan } = await shared();
    await invokeTool(one.planning_claim_step, { step_id: 'S001' }, { session });
    const refused = await invokeTool(
      two.planning_mark_step,
      { step_id: 'S001', status: 'done' },
      { session },
    );
    expect(refused.message).toBe(
      'Tool validation failed: Step S001 is held by worker-1; only worker-1 can mark it.',
    );
    await invokeTool(
      one.planning_mark_step,
      { step_id: 'S001', status: 'done', note: 'ok' },
      { session },
    );
    expect(plan().steps[0]).toMatchObject({ status: 'done', owner: 'worker-1', notes: ['ok'] });
    const done = await invokeTool(two.planning_claim_step, { step_id: 'S001' }, { session });
    expect(done.message).toBe(
      'Tool validation failed: Step S001 is held by worker-1; claim another step or ask worker-1 to release it.',
    );
    const free = await invokeTool(
      two.planning_mark_step,
      { step_id: 'S002', status: 'done' },
      { session },
    );
    const claimDone = await invokeTool(two.planning_claim_step, { step_id: 'S002' }, { session });
    expect(free.success).toBe(true);
    expect(claimDone.message).toBe(
      'Tool validation failed: Step S002 is done; there is nothing to claim.',
    );
  });

  it('a batch cannot mark or note a step another agent holds; nothing changes', async () => {
    const session = new Session();
    const lead = createPlanningTools(session, { extensions: [batch(), owners({ agent: 'lead' })] });
    const worker = createPlanningTools(session, { extensions: [batch(), owners({ agent: 'w' })] });
    await invokeTool(lead.planning_setup_plan, setup, { session });
    await invokeTool(worker.planning_claim_step, { step_id: 'S001' }, { session });
    const before = session.snapshot();
    const result = await invokeTool(
      lead.planning_apply_batch,
      {
        operations: [
          { op: 'mark', step_id: 'S002', status: 'done' },
          { op: 'note', step_id: 'S001', note: 'x' },
        ],
      },
      { session },
    );
    expect(result.message).toBe(
      'Tool validation failed: Batch refused; nothing was changed. 1 of 2 operations failed: operations[1] (note S001): Step S001 is held by w; only w can mark it.',
    );
    expect(session.snapshot()).toBe(before);
  });

  it('of two claims computed on the same plan, only the first applied wins (the reducer re-checks)', async () => {
    const { session, plan } = await shared();
    const first = session.dispatch(ClaimStep, { step_id: 'S002', owner: 'worker-1' });
    const second = session.dispatch(ClaimStep, { step_id: 'S002', owner: 'worker-2' });
    expect(first.ok).toBe(true);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.error.message).toContain('Step S002 is held by worker-1');
    expect(plan().steps[1]?.owner).toBe('worker-1');
  });

  it('refuses bad agent ids (control characters, 10 KB, __proto__, empty) as options, commands and plans; state unchanged', async () => {
    const { session } = await shared();
    const before = session.snapshot();
    for (const bad of ['work\ner', 'a\u0000b', 'x'.repeat(10 * 1024), '__proto__', '', ' lead']) {
      expect(() => createPlanningTools(session, { extensions: [owners({ agent: bad })] })).toThrow(
        /options\.agent must be 1-64 characters/,
      );
      for (const type of [ClaimStep, ReleaseStep]) {
        const result = session.dispatch(type, { step_id: 'S001', owner: bad });
        expect(result.ok).toBe(false);
        if (!result.ok) {
          expect(result.error.code).toBe('value_invalid');
          expect(result.error.message).toMatch(/owner: Owner must be 1-64 characters/);
          expect(result.error.message.length).toBeLessThan(2000);
        }
      }
      const plan = selectLatest(session, Plan) as Plan;
      const forged = { ...plan, steps: plan.steps.map((s) => ({ ...s, owner: bad })) };
      const result = session.dispatch(Plan, forged);
      expect(result.ok).toBe(false);
      expect(session.snapshot()).toBe(before);
    }
    expect(() => owners({} as unknown as { agent: string })).toThrow(PlankitError);
    expect(() => owners({ agent: 'a', extra: 1 } as unknown as { agent: string })).toThrow(
      /owners: options\.extra is not an option/,
    );
    expect(() =>
      createPlanningTools(session, { owners: true } as unknown as PlanningToolsOptions),
    ).toThrow(/options\.owners moved to an extension: pass extensions: \[owners\(\{ agent \}\)\]/);
  });

  it('survives toJSON/fromJSON: owners are part of the plan', async () => {
    const { snapshotToJSON } = await import('../../snapshot-to-json.ts');
    const { snapshotFromJSON } = await import('../../snapshot-from-json.ts');
    const { session, one } = await shared();
    await invokeTool(one.planning_claim_step, { step_id: 'S002' }, { session });
    const fresh = new Session({ sessionId: 'shared' });
    createPlanningTools(fresh, { extensions: [owners({ agent: 'x' })] });
    const read = snapshotFromJSON(JSON.stringify(snapshotToJSON(session.snapshot())), fresh);
    expect(read).toEqual({ ok: true, value: session.snapshot() });
  });
});
