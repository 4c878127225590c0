import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DataType, dataTypeName } from '../../define-data-type.ts';
import type { AnyTool } from '../../define-tool.ts';
import { invokeTool } from '../../invoke-tool.ts';
import { batch, dependencies, history, owners } from '../../plan-model.ts';
import type { SessionChange } from '../../plankit-event.ts';
import { selectLatest } from '../../select-latest.ts';
import { Session } from '../../session.ts';
import { snapshotFromJSON } from '../../snapshot-from-json.ts';
import { snapshotToJSON } from '../../snapshot-to-json.ts';
import { createPlanningTools } from '../create-planning-tools.ts';
import { Plan } from '../plan.ts';
import { PLAN_MODEL_COMMANDS } from '../register-plan-model-reducers.ts';
import { diffPlans } from './diff-plans.ts';
import { MAX_PLAN_REVISIONS, planHistory } from './plan-history.ts';

const extensionsFor = (agent: string) =>
  [dependencies(), batch(), owners({ agent }), history()] as const;

function agents(sessionId: string) {
  let now = 1_700_000_000_000;
  const session = new Session({ sessionId, clock: () => now++ });
  const tools = {
    lead: createPlanningTools(session, { extensions: extensionsFor('lead') }),
    a: createPlanningTools(session, { extensions: extensionsFor('agent-a') }),
    b: createPlanningTools(session, { extensions: extensionsFor('agent-b') }),
  };
  return { session, tools };
}

const id = fc.integer({ min: 1, max: 6 }).map((n) => `S00${n}`);
const why = fc.option(fc.constantFrom('because', 'lead asked', '  ', 'x'.repeat(600)), {
  nil: undefined,
});
const call = fc.record({
  who: fc.constantFrom('lead', 'a', 'b') as fc.Arbitrary<'lead' | 'a' | 'b'>,
  explanation: why,
  action: fc.oneof(
    fc.record({ tool: fc.constant(6), args: fc.record({ step_id: id }) }), // batch (below)
    fc.record({ tool: fc.constant(7), args: fc.record({ step_id: id }) }), // claim
    fc.record({ tool: fc.constant(8), args: fc.record({ step_id: id }) }), // release
    fc.record({
      tool: fc.constant(3),
      args: fc.record({
        step_id: id,
        status: fc.constantFrom('pending', 'in_progress', 'done', 'blocked'),
      }),
    }),
    fc.record({
      tool: fc.constant(1),
      args: fc.record({
        steps: fc.array(
          fc.record({ title: fc.constant('t'), depends_on: fc.array(id, { maxLength: 2 }) }),
          { minLength: 1, maxLength: 2 },
        ),
      }),
    }),
    fc.record({
      tool: fc.constant(2),
      args: fc.record({ step_id: id, depends_on: fc.array(id, { maxLength: 2 }) }),
    }),
  ),
});

type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

async function run(session: Session, tools: ReturnType<typeof agents>['tools'], calls: Call[]) {
  await invokeTool(
    tools.lead.planning_setup_plan,
    {
      objective: 'o',
      initial_steps: [{ title: 'a' }, { title: 'b' }, { title: 'c', depends_on: ['S001'] }],
      explanation: 'start',
    },
    { session },
  );
  for (const c of calls) {
    const set = tools[c.who];
    const args =
      c.action.tool === 6
        ? { operations: [{ op: 'note', step_id: c.action.args.step_id, note: 'n' }] }
        : c.action.args;
    const before = session.snapshot();
    const result = await invokeTool(
      set[c.action.tool] as AnyTool,
      { ...args, ...(c.explanation === undefined ? {} : { explanation: c.explanation }) },
      { session },
    );
    if (!result.success) expect(session.snapshot()).toBe(before);
    expect(result.message.length).toBeLessThan(2000);
  }
}

describe('plan history (properties)', () => {
  it('each revision diffs the plan before against the plan after; the newest keeps the live plan; toJSON/fromJSON and a replay of the commits reproduce it exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { maxLength: 25 }), async (calls) => {
        const { session, tools } = agents('p');
        const plans: (Plan | undefined)[] = [];
        const commits: { at: number; changes: SessionChange[] }[] = [];
        session.bus.subscribe('SessionCommitted', (event) => {
          commits.push({ at: event.at, changes: [...event.changes] });
          plans.push(selectLatest(session, Plan));
        });
        await run(session, tools, calls);
        const history = planHistory(session);
        expect(history).toHaveLength(plans.length);
        for (let i = 0; i < history.length; i++) {
          expect(history[i]?.revision).toBe(i + 1);
          expect(history[i]?.diff).toEqual(diffPlans(plans[i - 1] ?? null, plans[i]));
        }
        expect(history.at(-1)?.plan).toEqual(selectLatest(session, Plan));
        // toJSON/fromJSON
        const text = JSON.stringify(snapshotToJSON(session.snapshot()));
        expect(snapshotFromJSON(text, agents('p').session)).toEqual({
          ok: true,
          value: session.snapshot(),
        });
        // A store's replay: every committed change, as JSON, dispatched again into a fresh session.
        const fresh = agents('p').session;
        const types = new Map<string, DataType>(fresh.sliceTypes());
        for (const type of PLAN_MODEL_COMMANDS) types.set(dataTypeName(type), type);
        for (const { at, changes } of commits) {
          for (const change of JSON.parse(JSON.stringify(changes)) as SessionChange[]) {
            const type = types.get(change.dataType);
            if (type === undefined) continue;
            const replayed = fresh.dispatch(type, change.value, { now: at });
            expect(replayed.ok).toBe(true);
          }
        }
        expect(planHistory(fresh)).toEqual(history);
        expect(selectLatest(fresh, Plan)).toEqual(selectLatest(session, Plan));
      }),
      { numRuns: 50 },
    );
  }, 60_000);

  it(`the history never holds more than ${MAX_PLAN_REVISIONS} revisions and only the newest keeps a plan`, async () => {
    const { session, tools } = agents('bounded');
    await run(session, tools, []);
    for (let i = 0; i < MAX_PLAN_REVISIONS + 5; i++)
      await invokeTool(
        tools.a.planning_mark_step,
        { step_id: 'S002', status: i % 2 ? 'pending' : 'blocked' },
        { session },
      );
    const history = planHistory(session);
    expect(history).toHaveLength(MAX_PLAN_REVISIONS);
    expect(history.filter((r) => r.plan !== undefined)).toHaveLength(1);
  });
});
