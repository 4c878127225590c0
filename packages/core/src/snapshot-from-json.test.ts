import { describe, expect, it } from 'vitest';
import { invokeTool } from './invoke-tool.ts';
import { createPlanningTools } from './planning/create-planning-tools.ts';
import { Plan } from './planning/plan.ts';
import { selectLatest } from './select-latest.ts';
import { Session } from './session.ts';
import { snapshotFromJSON } from './snapshot-from-json.ts';
import { snapshotToJSON } from './snapshot-to-json.ts';

async function plannedSession() {
  const session = new Session({ sessionId: 'json', clock: () => 10 });
  const {
    planning_setup_plan: setup,
    planning_add_step: add,
    planning_mark_step: mark,
  } = createPlanningTools(session);
  await invokeTool(
    setup,
    { objective: 'o', initial_steps: [{ title: 'a', details: 'd' }] },
    { session },
  );
  await invokeTool(add, { steps: [{ title: 'b' }] }, { session });
  await invokeTool(mark, { step_id: 'S001', status: 'done', note: 'ok' }, { session });
  return session;
}

function freshPlanningSession() {
  const session = new Session({ sessionId: 'other' });
  createPlanningTools(session);
  return session;
}

describe('snapshotToJSON / snapshotFromJSON', () => {
  it('round-trips a snapshot losslessly, through text too', async () => {
    const session = await plannedSession();
    const json = snapshotToJSON(session.snapshot());
    expect(json).toMatchObject({
      format: 'plankit.session-snapshot',
      version: 1,
      sessionId: 'json',
      revision: 3,
    });
    const target = freshPlanningSession();
    const fromObject = snapshotFromJSON(json, target);
    const fromText = snapshotFromJSON(JSON.stringify(json), target);
    expect(fromObject).toEqual({ ok: true, value: session.snapshot() });
    expect(fromText).toEqual({ ok: true, value: session.snapshot() });
    if (!fromText.ok) return;
    expect(Object.isFrozen(fromText.value.slices['plankit.Plan']?.[0])).toBe(true);
    expect(target.rollback(fromText.value).ok).toBe(true);
    expect(selectLatest(target, Plan)).toEqual(selectLatest(session, Plan));
  });

  it('refuses malformed JSON and wrong shapes with snapshot_invalid, naming the field', () => {
    const session = freshPlanningSession();
    const good = {
      format: 'plankit.session-snapshot',
      version: 1,
      sessionId: 's',
      revision: 0,
      slices: {},
    };
    const cases: [unknown, string, RegExp][] = [
      ['{"format":', 'snapshot_invalid', /not valid JSON/],
      [[], 'snapshot_invalid', /format/],
      [{ ...good, format: 'other' }, 'snapshot_invalid', /format/],
      [{ ...good, sessionId: '' }, 'snapshot_invalid', /sessionId/],
      [{ ...good, revision: -1 }, 'snapshot_invalid', /revision/],
      [{ ...good, revision: 1.5 }, 'snapshot_invalid', /revision/],
      [{ ...good, slices: [] }, 'snapshot_invalid', /slices must be an object/],
      [{ ...good, slices: { 'plankit.Plan': {} } }, 'snapshot_invalid', /must be an array/],
      [
        { ...good, slices: { 'plankit.Plan': [{ objective: 'o', status: 'paused', steps: [] }] } },
        'snapshot_invalid',
        /item 0 does not match its schema at status/,
      ],
      [
        {
          ...good,
          slices: { 'plankit.Plan': [{ objective: 'o', status: 'active', steps: [], extra: 1 }] },
        },
        'snapshot_invalid',
        /item 0 does not match its schema/,
      ],
    ];
    for (const [input, code, message] of cases) {
      const result = snapshotFromJSON(input, session);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe(code);
      expect(result.error.message).toMatch(message);
    }
  });

  it('names both versions when the version is unknown', () => {
    const result = snapshotFromJSON(
      { format: 'plankit.session-snapshot', version: 2, sessionId: 's', revision: 0, slices: {} },
      freshPlanningSession(),
    );
    expect(!result.ok && result.error).toMatchObject({
      code: 'snapshot_version_unknown',
      field: 'version',
      message: 'Snapshot version 2 is unknown; this build reads version 1.',
    });
  });

  it('refuses a slice the session has not registered, including __proto__', () => {
    const session = new Session();
    const plain = snapshotFromJSON(
      {
        format: 'plankit.session-snapshot',
        version: 1,
        sessionId: 's',
        revision: 0,
        slices: { 'plankit.Plan': [] },
      },
      session,
    );
    expect(!plain.ok && plain.error.message).toBe(
      'Slice plankit.Plan is not registered on this session: register it before restoring (createPlanningTools(session) or registerPlanningReducers(session) for the plan, session.register(type, reducer) for your own).',
    );
    const hostile = snapshotFromJSON(
      '{"format":"plankit.session-snapshot","version":1,"sessionId":"s","revision":0,"slices":{"__proto__":[{"polluted":true}]}}',
      session,
    );
    expect(!hostile.ok && hostile.error.code).toBe('slice_unregistered');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses restored plans that break the plan invariants', () => {
    const step = (step_id: string, status = 'pending') => ({
      step_id,
      title: 't',
      details: null,
      status,
      notes: [],
    });
    const snapshotOf = (plan: unknown) => ({
      format: 'plankit.session-snapshot',
      version: 1,
      sessionId: 's',
      revision: 1,
      slices: { 'plankit.Plan': [plan] },
    });
    const cases: [unknown, RegExp][] = [
      [
        { objective: 'o', status: 'active', steps: [step('S001'), step('S001')] },
        /S001.*more than once/,
      ],
      [
        { objective: 'o', status: 'active', steps: [step('S9007199254740993')] },
        /9007199254740991/,
      ],
      [{ objective: 'o', status: 'active', steps: [step(`S${'9'.repeat(400)}`)] }, /step_id/],
      [{ objective: 'o', status: 'active', steps: [step('')] }, /step_id/],
      [{ objective: 'o', status: 'active', steps: [step('S 01')] }, /step_id/],
      [{ objective: 'o', status: 'completed', steps: [step('S001')] }, /status/],
      [{ objective: 'o', status: 'completed', steps: [] }, /status/],
      [{ objective: 'o', status: 'active', steps: [step('S001', 'done')] }, /status/],
      [{ objective: 'o', status: 'abandoned', steps: [step('S001')] }, /status/],
      [{ objective: 'a\u0000b', status: 'active', steps: [] }, /objective/],
      // The tools' rules hold here too (ids they mint, their text rules).
      [{ objective: 'o', status: 'active', steps: [step('../../etc')] }, /step_id/],
      [{ objective: 'o', status: 'active', steps: [step('Sx')] }, /step_id/],
      [{ objective: 'o', status: 'active', steps: [step('S1')] }, /step_id/],
      [{ objective: 'o\u001b[2J', status: 'active', steps: [] }, /objective.*control/],
      [{ objective: 'x'.repeat(100_000), status: 'active', steps: [] }, /objective.*<= 240/],
      [{ objective: ' o', status: 'active', steps: [] }, /objective.*whitespace/],
    ];
    for (const [plan, message] of cases) {
      const result = snapshotFromJSON(snapshotOf(plan), freshPlanningSession());
      expect(result.ok, JSON.stringify(plan).slice(0, 80)).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('snapshot_invalid');
      expect(result.error.message).toMatch(message);
      expect(result.error.message.length).toBeLessThan(2_000);
    }
    const fine = snapshotFromJSON(
      snapshotOf({
        objective: 'o',
        status: 'completed',
        steps: [step('S001', 'done'), step('S1000', 'done')],
      }),
      freshPlanningSession(),
    );
    expect(fine.ok).toBe(true);
  });

  it('keeps every refusal message short, whatever the input', () => {
    const session = freshPlanningSession();
    const huge = 'x'.repeat(1_000_000);
    const inputs: unknown[] = [
      `{"format":${huge}`,
      {
        format: 'plankit.session-snapshot',
        version: huge,
        sessionId: 's',
        revision: 0,
        slices: {},
      },
      {
        format: 'plankit.session-snapshot',
        version: 1,
        sessionId: 's',
        revision: 0,
        slices: { [huge]: [] },
      },
    ];
    for (const input of inputs) {
      const result = snapshotFromJSON(input, session);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message.length).toBeLessThan(2_000);
    }
  });
});
