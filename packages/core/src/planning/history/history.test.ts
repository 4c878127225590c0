import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { invokeTool } from '../../invoke-tool.ts';
import {
  batch,
  history,
  owners,
  registerPlanModelReducers,
  registerPlanningExtensions,
} from '../../plan-model.ts';
import { selectLatest } from '../../select-latest.ts';
import { Session } from '../../session.ts';
import { snapshotFromJSON } from '../../snapshot-from-json.ts';
import { snapshotToJSON } from '../../snapshot-to-json.ts';
import { createPlanningTools } from '../create-planning-tools.ts';
import { Plan } from '../plan.ts';
import { MarkStep, SetupPlan } from '../plan-commands.ts';
import { estimates } from '../testing/estimates-extension.ts';
import { PlanChange } from './plan-change.ts';
import {
  MAX_PLAN_REVISIONS,
  PlanRevision,
  planHistory,
  renderPlanRevision,
} from './plan-history.ts';

const setup = { objective: 'ship v2', initial_steps: [{ title: 'draft' }, { title: 'review' }] };

function tools(session: Session, agent = 'lead') {
  return createPlanningTools(session, { extensions: [batch(), owners({ agent }), history()] });
}

describe('history option', () => {
  it('keeps names, descriptions and messages; adds an optional explanation to every mutating tool', async () => {
    const plain = createPlanningTools(new Session());
    const session = new Session({ clock: () => 5 });
    const explained = createPlanningTools(session, { extensions: [history()] });
    expect(explained.map((t) => [t.name, t.description])).toEqual(
      plain.map((t) => [t.name, t.description]),
    );
    for (const [i, tool] of explained.entries()) {
      const shape = z.toJSONSchema(tool.parameters, { io: 'input' }) as {
        properties: Record<string, unknown>;
      };
      const plainShape = z.toJSONSchema((plain[i] as typeof tool).parameters, { io: 'input' }) as {
        properties: Record<string, unknown>;
      };
      if (tool.name === 'planning_read_plan') expect(shape).toEqual(plainShape);
      else
        expect(Object.keys(shape.properties)).toEqual([
          ...Object.keys(plainShape.properties),
          'explanation',
        ]);
    }
    const result = await invokeTool(
      explained.planning_setup_plan,
      { ...setup, explanation: '  kick-off  ' },
      { session },
    );
    expect(result.message).toBe('Plan initialised with 2 steps.');
    expect(result.value).toEqual({
      command: 'plankit.SetupPlan',
      value: {
        objective: 'ship v2',
        initial_steps: [
          { title: 'draft', details: null },
          { title: 'review', details: null },
        ],
      },
      actor: null,
      explanation: 'kick-off',
    });
  });

  it('records who changed what and why, as structured diffs, and renders them', async () => {
    const session = new Session({ sessionId: 'h', clock: () => 1000 });
    const lead = tools(session, 'lead');
    const worker = tools(session, 'worker-1');
    await invokeTool(
      lead.planning_setup_plan,
      { ...setup, explanation: 'Start the release.' },
      { session },
    );
    await invokeTool(
      worker.planning_claim_step,
      { step_id: 'S001', explanation: 'I take the draft.' },
      { session },
    );
    await invokeTool(
      worker.planning_mark_step,
      { step_id: 'S001', status: 'done', note: 'drafted' },
      { session },
    );
    await invokeTool(lead.planning_add_step, { steps: [{ title: 'publish' }] }, { session });
    // A plain command dispatched by hand is recorded too, without actor or explanation.
    session.dispatch(MarkStep, { step_id: 'S002', status: 'in_progress', note: null });
    const revisions = planHistory(session);
    expect(revisions.map((r) => [r.revision, r.command, r.actor, r.explanation])).toEqual([
      [1, 'plankit.SetupPlan', 'lead', 'Start the release.'],
      [2, 'plankit.ClaimStep', 'worker-1', 'I take the draft.'],
      [3, 'plankit.MarkStep', 'worker-1', null],
      [4, 'plankit.AddStep', 'lead', null],
      [5, 'plankit.MarkStep', null, null],
    ]);
    expect(revisions[2]?.diff).toEqual({
      objective: null,
      status: null,
      steps: [
        {
          change: 'edited',
          step_id: 'S001',
          fields: [
            { field: 'status', before: 'pending', after: 'done' },
            { field: 'notes', before: [], after: ['drafted'] },
          ],
        },
      ],
    });
    // Only the newest revision keeps the plan it left.
    expect(revisions.slice(0, -1).every((r) => r.plan === undefined)).toBe(true);
    expect(revisions.at(-1)?.plan).toEqual(selectLatest(session, Plan));
    await expect(revisions.map(renderPlanRevision).join('\n')).toMatchFileSnapshot(
      './__snapshots__/history.txt',
    );
  });

  it('refuses a bad explanation after the tool’s own checks; nothing changes', async () => {
    const session = new Session();
    const lead = tools(session);
    await invokeTool(lead.planning_setup_plan, setup, { session });
    const before = session.snapshot();
    for (const [explanation, message] of [
      ['x'.repeat(513), 'Explanation must be <= 512 characters.'],
      ['caf\u00e9', 'Explanation must be ASCII.'],
      ['a\nb', 'Explanation must not contain control characters.'],
    ] as const) {
      const result = await invokeTool(
        lead.planning_mark_step,
        { step_id: 'S001', status: 'done', explanation },
        { session },
      );
      expect(result.message).toBe(`Tool validation failed: ${message}`);
      expect(session.snapshot()).toBe(before);
    }
    const unknown = await invokeTool(
      lead.planning_mark_step,
      { step_id: 'S009', status: 'done', explanation: 'x'.repeat(600) },
      { session },
    );
    expect(unknown.message).toBe('Tool validation failed: Step S009 does not exist.');
    const huge = await invokeTool(
      lead.planning_mark_step,
      { step_id: 'S001', status: 'done', explanation: 'x'.repeat(1 << 20) },
      { session },
    );
    expect(huge.success).toBe(false);
    expect(huge.message.length).toBeLessThan(2000);
    expect(session.snapshot()).toBe(before);
  });

  it(`keeps the newest ${MAX_PLAN_REVISIONS} revisions, numbered on, and survives toJSON/fromJSON`, async () => {
    const session = new Session({ sessionId: 'long', clock: () => 7 });
    const lead = tools(session);
    await invokeTool(lead.planning_setup_plan, setup, { session });
    for (let i = 0; i < MAX_PLAN_REVISIONS + 30; i++) {
      await invokeTool(
        lead.planning_mark_step,
        { step_id: 'S001', status: i % 2 === 0 ? 'in_progress' : 'pending' },
        { session },
      );
    }
    const kept = planHistory(session);
    expect(kept).toHaveLength(MAX_PLAN_REVISIONS);
    expect(kept[0]?.revision).toBe(32);
    expect(kept.at(-1)?.revision).toBe(MAX_PLAN_REVISIONS + 31);
    const fresh = new Session({ sessionId: 'long' });
    tools(fresh);
    const read = snapshotFromJSON(JSON.stringify(snapshotToJSON(session.snapshot())), fresh);
    expect(read).toEqual({ ok: true, value: session.snapshot() });
    if (read.ok) fresh.rollback(read.value);
    await invokeTool(
      createPlanningTools(fresh, { extensions: [history()] }).planning_mark_step,
      { step_id: 'S002', status: 'done' },
      { session: fresh },
    );
    expect(planHistory(fresh).at(-1)?.diff?.steps).toEqual([
      {
        change: 'edited',
        step_id: 'S002',
        fields: [{ field: 'status', before: 'pending', after: 'done' }],
      },
    ]);
  });

  it('records without a diff when history starts after the plan was set up', async () => {
    const session = new Session({ clock: () => 3 });
    const plain = createPlanningTools(session);
    await invokeTool(plain.planning_setup_plan, setup, { session });
    const later = createPlanningTools(session, { extensions: [history({ agent: 'late' })] });
    await invokeTool(later.planning_mark_step, { step_id: 'S001', status: 'done' }, { session });
    await invokeTool(
      later.planning_mark_step,
      { step_id: 'S002', status: 'in_progress' },
      { session },
    );
    await invokeTool(later.planning_setup_plan, setup, { session });
    await invokeTool(later.planning_mark_step, { step_id: 'S002', status: 'done' }, { session });
    expect(planHistory(session).map((r) => r.diff === null)).toEqual([true, true, true, false]);
    expect(renderPlanRevision(planHistory(session)[0] as never)).toBe(
      '#1 plankit.MarkStep by late\n  (changes not recorded: the plan before is not known)',
    );
  });

  it('refuses a bad PlanChange dispatched by hand (unknown command, bad actor, huge explanation, bad inner value); nothing changes', async () => {
    const session = new Session();
    const lead = tools(session);
    await invokeTool(lead.planning_setup_plan, setup, { session });
    const before = session.snapshot();
    const mark = { step_id: 'S001', status: 'done', note: null };
    const bad = [
      { command: '__proto__', value: mark, actor: null, explanation: null },
      { command: 'plankit.MarkStep', value: mark, actor: 'a\u0007b', explanation: null },
      { command: 'plankit.MarkStep', value: mark, actor: '__proto__', explanation: null },
      { command: 'plankit.MarkStep', value: mark, actor: null, explanation: 'x'.repeat(1 << 20) },
      {
        command: 'plankit.MarkStep',
        value: { ...mark, status: 'finished' },
        actor: null,
        explanation: null,
      },
      {
        command: 'plankit.MarkStep',
        value: { ...mark, step_id: 'S404' },
        actor: null,
        explanation: null,
      },
    ];
    for (const value of bad) {
      const result = session.dispatch(PlanChange, value as unknown as PlanChange);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message.length).toBeLessThan(2000);
      expect(session.snapshot()).toBe(before);
    }
  });

  it('with every option off, the session has no history slice', async () => {
    const session = new Session();
    const six = createPlanningTools(session);
    await invokeTool(six.planning_setup_plan, setup, { session });
    expect(Object.keys(session.snapshot().slices).sort()).toEqual([
      'plankit.Plan',
      'plankit.ToolCall',
    ]);
    expect(planHistory(session)).toEqual([]);
  });

  it('holds a revision from outside to the rules the tools record by', () => {
    const step = { step_id: 'S001', title: 't', details: null, status: 'pending', notes: [] };
    const revision = {
      revision: 1,
      at: 0,
      command: 'plankit.AddStep',
      actor: 'lead',
      explanation: 'why',
      diff: { objective: null, status: null, steps: [{ change: 'added', step_id: 'S001', step }] },
    };
    expect(PlanRevision.safeParse(revision).success).toBe(true);
    const refused: [unknown, string][] = [
      [{ ...revision, actor: '__proto__' }, 'actor'],
      [{ ...revision, actor: 'lead\n#2 forged' }, 'actor'],
      [{ ...revision, explanation: 'a\u0000' }, 'explanation'],
      [{ ...revision, explanation: ' why' }, 'explanation'],
      [{ ...revision, explanation: 'x'.repeat(1 << 20) }, 'explanation'],
      [{ ...revision, command: 'plankit.Plan\nforged' }, 'command'],
      [
        {
          ...revision,
          diff: { ...revision.diff, steps: [{ change: 'added', step_id: '../../etc', step }] },
        },
        'diff.steps.0.step_id',
      ],
      [
        {
          ...revision,
          diff: {
            ...revision.diff,
            steps: [{ change: 'added', step_id: 'S001', step: { ...step, title: 'T\u001b[2J' } }],
          },
        },
        'diff.steps.0.step.title',
      ],
      [
        { ...revision, diff: { ...revision.diff, objective: { before: null, after: 'a\nb' } } },
        'diff.objective.after',
      ],
    ];
    for (const [value, where] of refused) {
      const parsed = PlanRevision.safeParse(value);
      expect(parsed.success, where).toBe(false);
      expect(parsed.error?.issues[0]?.path.join('.'), where).toBe(where);
    }
  });
});

describe('history() and the tools of other extensions', () => {
  it('gives an extension’s own tool an explanation and records it, whatever the order', async () => {
    for (const extensions of [
      [estimates(), history({ agent: 'lead' })],
      [history({ agent: 'lead' }), estimates()],
    ] as const) {
      const session = new Session({ clock: () => 9 });
      const tools = createPlanningTools(session, { extensions });
      const shape = z.toJSONSchema(tools.planning_set_estimate.parameters, { io: 'input' }) as {
        properties: Record<string, unknown>;
      };
      expect(Object.keys(shape.properties)).toEqual(['step_id', 'hours', 'explanation']);
      await invokeTool(tools.planning_setup_plan, setup, { session });
      const set = await invokeTool(
        tools.planning_set_estimate,
        { step_id: 'S002', hours: 3, explanation: ' The review is short. ' },
        { session },
      );
      expect(set).toMatchObject({ success: true, message: 'Step S002 estimated at 3h.' });
      expect(set.value).toEqual({
        command: 'example.SetEstimate',
        value: { step_id: 'S002', hours: 3 },
        actor: 'lead',
        explanation: 'The review is short.',
      });
      expect(selectLatest(session, Plan)?.steps[1]?.notes).toEqual(['estimate: 3h']);
      expect(planHistory(session).map((r) => [r.command, r.actor, r.explanation])).toEqual([
        ['plankit.SetupPlan', 'lead', null],
        ['example.SetEstimate', 'lead', 'The review is short.'],
      ]);
      expect(planHistory(session)[1]?.diff?.steps).toEqual([
        {
          change: 'edited',
          step_id: 'S002',
          fields: [{ field: 'notes', before: [], after: ['estimate: 3h'] }],
        },
      ]);
      // The explanation is checked after the tool's own checks, as for the six.
      const before = session.snapshot();
      const unknown = await invokeTool(
        tools.planning_set_estimate,
        { step_id: 'S009', hours: 1, explanation: 'a\nb' },
        { session },
      );
      expect(unknown.message).toBe('Tool validation failed: Step S009 does not exist.');
      const bad = await invokeTool(
        tools.planning_set_estimate,
        { step_id: 'S001', hours: 1, explanation: 'a\nb' },
        { session },
      );
      expect(bad.message).toBe(
        'Tool validation failed: Explanation must not contain control characters.',
      );
      expect(session.snapshot()).toBe(before);
    }
  });

  it('survives toJSON/fromJSON on a session with the same extensions', async () => {
    const session = new Session({ sessionId: 'estimated', clock: () => 4 });
    const tools = createPlanningTools(session, { extensions: [history(), estimates()] });
    await invokeTool(tools.planning_setup_plan, setup, { session });
    await invokeTool(
      tools.planning_set_estimate,
      { step_id: 'S001', hours: 8, explanation: 'Drafts take a day.' },
      { session },
    );
    const fresh = new Session({ sessionId: 'estimated' });
    createPlanningTools(fresh, { extensions: [estimates(), history()] });
    const read = snapshotFromJSON(JSON.stringify(snapshotToJSON(session.snapshot())), fresh);
    expect(read).toEqual({ ok: true, value: session.snapshot() });
  });

  it('applies a PlanChange carrying an extension’s command only where the extension is registered, checked by its schema', async () => {
    const session = new Session();
    const tools = createPlanningTools(session, { extensions: [history(), estimates()] });
    await invokeTool(tools.planning_setup_plan, setup, { session });
    const change = (value: unknown, command = 'example.SetEstimate') =>
      ({ command, value, actor: 'lead', explanation: 'by hand' }) as PlanChange;
    expect(session.dispatch(PlanChange, change({ step_id: 'S001', hours: 2 })).ok).toBe(true);
    expect(selectLatest(session, Plan)?.steps[0]?.notes).toEqual(['estimate: 2h']);
    expect(planHistory(session).at(-1)?.explanation).toBe('by hand');
    const before = session.snapshot();
    for (const [value, command, message] of [
      [{ step_id: 'S001', hours: 0 }, undefined, 'does not match its schema at hours'],
      [{ step_id: 'S001', hours: 2, extra: true }, undefined, 'does not match its schema'],
      [{ step_id: 'S404', hours: 2 }, undefined, 'Step S404 does not exist.'],
      [
        { step_id: 'S001', hours: 2 },
        'example.Unknown',
        'PlanChange command example.Unknown is not a command of this session',
      ],
    ] as const) {
      const result = session.dispatch(PlanChange, change(value, command));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).toContain(message);
      expect(session.snapshot()).toBe(before);
    }
    // The plan model's reducers alone do not know the command, and say so.
    const bare = new Session();
    registerPlanModelReducers(bare);
    bare.dispatch(SetupPlan, { objective: 'ship', initial_steps: [{ title: 'a', details: null }] });
    const refused = bare.dispatch(PlanChange, change({ step_id: 'S001', hours: 2 }));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toContain('example.SetEstimate');
    // Registered later on the same session, the extension's command is applied.
    registerPlanningExtensions(bare, [estimates()]);
    expect(bare.dispatch(PlanChange, change({ step_id: 'S001', hours: 2 })).ok).toBe(true);
  });
});
