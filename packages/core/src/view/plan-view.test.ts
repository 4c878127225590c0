import { describe, expect, it } from 'vitest';
import { dataTypeName } from '../define-data-type.ts';
import { invokeTool } from '../invoke-tool.ts';
import { dependencies, history, owners } from '../plan-model.ts';
import { createPlanningTools } from '../planning/create-planning-tools.ts';
import { MAX_EXPLANATION } from '../planning/history/plan-change.ts';
import { PlanRevision, planHistory } from '../planning/history/plan-history.ts';
import { Plan } from '../planning/plan.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { snapshotFromJSON } from '../snapshot-from-json.ts';
import { snapshotToJSON } from '../snapshot-to-json.ts';
import { MAX_VIEW_EXPLANATION, parsePlanView } from './parse-plan-view.ts';
import { PLAN_REVISION_SLICE, PLAN_SLICE, planView } from './plan-view.ts';

const extensionsFor = (agent: string) => [dependencies(), owners({ agent }), history()] as const;

/** A plan with every field a view carries: done, in progress and owned, waiting, blocked with a note. */
async function workedPlan() {
  const session = new Session({ sessionId: 'view', clock: () => 1_700_000_000_000 });
  const lead = createPlanningTools(session, { extensions: extensionsFor('lead') });
  const worker = createPlanningTools(session, { extensions: extensionsFor('worker-1') });
  await invokeTool(
    lead.planning_setup_plan,
    {
      objective: 'Ship the release',
      initial_steps: [
        { title: 'Draft the notes', details: 'From the changelog' },
        { title: 'Build the packages' },
        { title: 'Publish', depends_on: ['S001', 'S002'] },
        { title: 'Announce', depends_on: ['S003'] },
      ],
      explanation: 'Start the release.',
    },
    { session },
  );
  await invokeTool(
    lead.planning_mark_step,
    { step_id: 'S001', status: 'done', note: 'drafted' },
    { session },
  );
  await invokeTool(worker.planning_claim_step, { step_id: 'S002' }, { session });
  await invokeTool(
    worker.planning_mark_step,
    { step_id: 'S002', status: 'in_progress', explanation: 'Building on the CI runner.' },
    { session },
  );
  await invokeTool(
    lead.planning_mark_step,
    {
      step_id: 'S004',
      status: 'blocked',
      note: 'waiting for the blog',
      explanation: 'The blog is not up yet.',
    },
    { session },
  );
  return session;
}

describe('planView', () => {
  it('shows steps, statuses, dependencies with what each waits on, owners, notes and the newest revision', async () => {
    const session = await workedPlan();
    const view = planView(session);
    await expect(`${JSON.stringify(view, null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/plan-view.json',
    );
    expect(view?.revision).toEqual({
      number: 5,
      explanation: 'The blog is not up yet.',
      agent: 'lead',
    });
    expect(view?.steps[2]?.waiting_on).toEqual(['S002']);
    expect(view?.counts).toEqual({ total: 4, done: 1, in_progress: 1, pending: 1, blocked: 1 });
  });

  it('is deeply frozen, JSON-safe, and read back unchanged by parsePlanView', async () => {
    const view = planView(await workedPlan());
    const stack: unknown[] = [view];
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      if (typeof item !== 'object' || item === null) continue;
      expect(Object.isFrozen(item)).toBe(true);
      stack.push(...Object.values(item));
    }
    const read = parsePlanView(JSON.parse(JSON.stringify(view)));
    expect(read).toEqual({ ok: true, value: view });
  });

  it('gives the same view from the session, its snapshot, a snapshot read back from JSON', async () => {
    const session = await workedPlan();
    const view = planView(session);
    expect(planView(session.snapshot())).toEqual(view);
    const copy = new Session();
    createPlanningTools(copy, { extensions: extensionsFor('lead') });
    const restored = snapshotFromJSON(snapshotToJSON(session.snapshot()), copy);
    expect(restored.ok && planView(restored.value)).toEqual(view);
  });

  it('has no revision for a plan alone or a session without history; empty lists without dependencies', async () => {
    const session = new Session();
    const tools = createPlanningTools(session);
    await invokeTool(
      tools.planning_setup_plan,
      { objective: 'o', initial_steps: [{ title: 'a' }] },
      { session },
    );
    const view = planView(session);
    expect(view).toMatchObject({
      revision: null,
      steps: [{ step_id: 'S001', depends_on: [], waiting_on: [], owner: null, last_note: null }],
    });
    expect(planView(selectLatest(session, Plan))).toEqual(view);
    expect(planView((await workedPlan()).select(Plan).at(-1))?.revision).toBeNull();
  });

  it('is null before a plan exists, and shows an abandoned plan after a clear', async () => {
    const session = new Session();
    const tools = createPlanningTools(session, { extensions: [history()] });
    expect(planView(session)).toBeNull();
    expect(planView(null)).toBeNull();
    expect(planView(undefined)).toBeNull();
    await invokeTool(
      tools.planning_setup_plan,
      { objective: 'o', initial_steps: [{ title: 'a' }] },
      { session },
    );
    await invokeTool(tools.planning_clear_plan, { explanation: 'Not needed.' }, { session });
    expect(planView(session)).toMatchObject({
      status: 'abandoned',
      steps: [],
      counts: { total: 0, done: 0, in_progress: 0, pending: 0, blocked: 0 },
      revision: { number: 2, explanation: 'Not needed.', agent: null },
    });
  });

  it('reads a state that keeps the plan in channels, its newest revision included', async () => {
    const session = await workedPlan();
    const channels = {
      plan: selectLatest(session, Plan) ?? null,
      planHistory: planHistory(session),
    };
    expect(planView(channels)).toEqual(planView(session));
    expect(planView({ plan: channels.plan })?.revision).toBeNull();
    expect(planView({ plan: null, planHistory: channels.planHistory })).toBeNull();
    // useStream's values before the first event, and a state from before the middleware ran.
    expect(planView({})).toBeNull();
    expect(planView({ planHistory: channels.planHistory })).toBeNull();
  });

  it('reads the slices and limits the core data types use (spelled out to stay free of zod)', () => {
    expect(PLAN_SLICE).toBe(dataTypeName(Plan));
    expect(PLAN_REVISION_SLICE).toBe(dataTypeName(PlanRevision));
    expect(MAX_VIEW_EXPLANATION).toBe(MAX_EXPLANATION);
  });
});
