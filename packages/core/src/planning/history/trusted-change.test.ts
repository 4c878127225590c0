import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../../define-tool.ts';
import { isTrustedAs } from '../../internal/trusted-value.ts';
import { invokeTool } from '../../invoke-tool.ts';
import { batch, history, owners } from '../../plan-model.ts';
import { selectLatest } from '../../select-latest.ts';
import { Session } from '../../session.ts';
import { createPlanningTools } from '../create-planning-tools.ts';
import { Plan } from '../plan.ts';
import type { PlanningExtension } from '../planning-extension.ts';
import { PlanChange } from './plan-change.ts';

// Under history(), a reference or batch tool's trusted command is wrapped in a PlanChange that
// is trusted too, so the session does not parse the change again and a batch's reducer takes
// the plan its handler reached. These tests pin what makes that safe: the change is what the
// schema would return, and a change with an actor nobody checked is parsed in full.

const NOW = 1_700_000_000_000;

function planning(extensions: readonly PlanningExtension[]) {
  const session = new Session({ sessionId: 'trusted-change', clock: () => NOW });
  const tools = createPlanningTools(session, { extensions });
  const tool = (name: string) => tools.find((t) => t.name === name) as AnyTool;
  const context = (name: string) => ({ session, now: NOW, toolName: name });
  // The handler alone, as invokeTool runs it: on parsed params, with nothing committed.
  const build = async (name: string, args: unknown) => {
    const t = tool(name);
    return (await t.handler(t.parameters.parse(args), context(name))).value;
  };
  const call = (name: string, args: unknown) => invokeTool(tool(name), args, { session });
  return { session, build, call, plan: () => selectLatest(session, Plan) };
}

const CALLS: readonly (readonly [string, unknown])[] = [
  ['planning_add_step', { steps: [{ title: ' d ', details: ' more ' }], explanation: ' why ' }],
  ['planning_update_step', { step_id: ' S001 ', title: 'A', explanation: null }],
  ['planning_mark_step', { step_id: 'S002', status: 'done', note: ' ok ', explanation: 'x' }],
  [
    'planning_apply_batch',
    {
      operations: [
        { op: 'mark', step_id: 'S001', status: 'done' },
        { op: 'add', title: 'e' },
      ],
      explanation: 'both at once',
    },
  ],
  ['planning_clear_plan', { explanation: ' done with it ' }],
  ['planning_setup_plan', { objective: ' Again ', initial_steps: [{ title: 'x' }] }],
];

describe('the PlanChange a history-wrapped tool builds', () => {
  it('is trusted, deeply frozen, and parses to an equal value, key order included', async () => {
    for (const agent of [undefined, 'lead']) {
      const extensions = [batch(), history(agent === undefined ? {} : { agent })];
      const { build, call } = planning(extensions);
      const setup = { objective: 'Ship', initial_steps: [{ title: 'a' }, { title: 'b' }] };
      expect((await call('planning_setup_plan', setup)).success).toBe(true);
      for (const [name, args] of CALLS) {
        const value = await build(name, args);
        expect(isTrustedAs(value, PlanChange)).toBe(true);
        expect(Object.isFrozen(value)).toBe(true);
        expect(isDeepStrictEqual(PlanChange.parse(value), value)).toBe(true);
        expect(JSON.stringify(PlanChange.parse(value))).toBe(JSON.stringify(value));
      }
    }
  });

  it('commits exactly what a dispatch of the same changes commits', async () => {
    const extensions = () => [batch(), owners({ agent: 'lead' }), history()];
    const viaTool = planning(extensions());
    const viaDispatch = planning(extensions());
    const setup = { objective: 'Ship', initial_steps: [{ title: 'a' }, { title: 'b' }] };
    for (const [name, args] of [['planning_setup_plan', setup] as const, ...CALLS]) {
      const value = await viaDispatch.build(name, args);
      expect((await viaTool.call(name, args)).success).toBe(true);
      expect(viaDispatch.session.dispatch(PlanChange, PlanChange.parse(value)).ok).toBe(true);
      expect(viaTool.plan()).toEqual(viaDispatch.plan());
    }
  });

  it('is parsed in full when a hand-written extension names an agent nobody checked', async () => {
    const unchecked: PlanningExtension = {
      name: 'unchecked-agent',
      settings: { agent: 'not an agent id!' },
    };
    const { session, build, call, plan } = planning([history(), unchecked]);
    const mark = ['planning_setup_plan', { objective: 'Ship', initial_steps: [] }] as const;
    expect(isTrustedAs(await build(...mark), PlanChange)).toBe(false);
    const before = session.snapshot();
    const result = await call(...mark);
    expect(result.success).toBe(false);
    expect(result.message).toContain('Actor');
    expect(session.snapshot()).toBe(before);
    expect(plan()).toBeUndefined();
  });
});
