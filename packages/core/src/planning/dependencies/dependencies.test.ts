import { describe, expect, it } from 'vitest';
import { invokeTool } from '../../invoke-tool.ts';
import {
  AddStepWithDependencies,
  dependencies,
  registerPlanModelReducers,
  SetupPlanWithDependencies,
} from '../../plan-model.ts';
import { selectLatest } from '../../select-latest.ts';
import { Session } from '../../session.ts';
import { snapshotFromJSON } from '../../snapshot-from-json.ts';
import { snapshotToJSON } from '../../snapshot-to-json.ts';
import type { ToolValidationError } from '../../tool-validation-error.ts';
import { createPlanningTools } from '../create-planning-tools.ts';
import { Plan } from '../plan.ts';
import type { PlanningExtension } from '../planning-extension.ts';
import { renderPlan } from '../render-plan.ts';
import { shortToolNames } from '../testing/short-tool-names.ts';
import type { TextMode } from '../text-mode.ts';
import { criticalPath } from './critical-path.ts';
import { blockedSteps, readySteps } from './ready-steps.ts';
import { renderPlanMermaid } from './render-plan-mermaid.ts';

function planning(
  extensions: readonly PlanningExtension[] = [dependencies()],
  text: TextMode = 'ascii',
) {
  const session = new Session({ sessionId: 'deps', clock: () => 1_700_000_000_000 });
  const tools = createPlanningTools(session, { extensions, text });
  const named = shortToolNames(tools);
  const call = (name: keyof typeof named, args: unknown) =>
    invokeTool(named[name], args, { session });
  const plan = () => selectLatest(session, Plan);
  return { session, call, plan, tools };
}

const chain = {
  objective: 'ship',
  initial_steps: [
    { title: 'design' },
    { title: 'build', depends_on: ['S001'] },
    { title: 'test', depends_on: ['S002'] },
    { title: 'docs', depends_on: ['S001'] },
  ],
};

async function refused(result: Promise<{ success: boolean; message: string }>, text: string) {
  const settled = await result;
  expect(settled.success).toBe(false);
  expect(settled.message).toContain(text);
  expect(settled.message.length).toBeLessThan(2000);
}

describe('dependencies option', () => {
  it('keeps the reference schemas when off, and adds depends_on when on', () => {
    const off = planning([]);
    const on = planning();
    expect(JSON.stringify(off.tools.planning_setup_plan.parameters)).not.toContain('depends_on');
    expect(on.tools.map((tool) => tool.name)).toEqual(off.tools.map((tool) => tool.name));
    expect(on.tools.planning_setup_plan.parameters.safeParse(chain).success).toBe(true);
    expect(off.tools.planning_setup_plan.parameters.safeParse(chain).success).toBe(false);
  });

  it('sets depends_on in setup and add, changes it in update', async () => {
    const { call, plan } = planning();
    expect((await call('setup', chain)).success).toBe(true);
    expect(plan()?.steps.map((s) => s.depends_on)).toEqual([[], ['S001'], ['S002'], ['S001']]);
    expect(
      (await call('add', { steps: [{ title: 'ship', depends_on: ['S003', 'S004'] }] })).success,
    ).toBe(true);
    expect(plan()?.steps[4]?.depends_on).toEqual(['S003', 'S004']);
    expect((await call('update', { step_id: 'S004', depends_on: [] })).message).toBe(
      'Step S004 update queued.',
    );
    expect(plan()?.steps[3]?.depends_on).toEqual([]);
  });

  it('refuses unknown ids, self-dependencies, duplicates and cycles, naming the cycle, and changes nothing', async () => {
    const { call, plan } = planning();
    await call('setup', chain);
    const before = plan();
    await refused(
      call('update', { step_id: 'S002', depends_on: ['S999'] }),
      'Step S002 depends on "S999", which is not a step of this plan.',
    );
    await refused(
      call('update', { step_id: 'S002', depends_on: ['S002'] }),
      'Step S002 cannot depend on itself.',
    );
    await refused(
      call('update', { step_id: 'S002', depends_on: ['S001', 'S001'] }),
      'lists S001 more than once',
    );
    await refused(
      call('update', { step_id: 'S001', depends_on: ['S003'] }),
      'Dependencies must not form a cycle: S001 -> S003 -> S002 -> S001.',
    );
    await refused(
      call('add', { steps: [{ title: 'x', depends_on: ['other-plan:S001'] }] }),
      'not a step of this plan',
    );
    await refused(
      call('update', {
        step_id: 'S002',
        depends_on: Array.from({ length: 10_000 }, (_, i) => `S${i}`),
      }),
      'Depends_on lists 10000 ids; at most 64 are allowed.',
    );
    expect(plan()).toBe(before);
  });

  it('quotes an unknown id in depends_on with every control character escaped, line separators too', async () => {
    const { call } = planning();
    await call('setup', chain);
    await refused(
      call('update', { step_id: 'S002', depends_on: ['S001\u2028\u2029\n\u0085'] }),
      'Step S002 depends on "S001\\u2028\\u2029\\n\\u0085", which is not a step of this plan.',
    );
  });

  it('refuses starting or finishing a step whose dependencies are open; warn mode allows it', async () => {
    const strict = planning();
    await strict.call('setup', chain);
    await refused(
      strict.call('mark', { step_id: 'S002', status: 'in_progress' }),
      'Step S002 depends on S001, which is not done; mark it done first.',
    );
    expect((await strict.call('mark', { step_id: 'S002', status: 'blocked' })).success).toBe(true);
    await strict.call('mark', { step_id: 'S001', status: 'done' });
    expect((await strict.call('mark', { step_id: 'S002', status: 'in_progress' })).success).toBe(
      true,
    );

    const lenient = planning([dependencies({ onOpenDependency: 'warn' })]);
    await lenient.call('setup', chain);
    const result = await lenient.call('mark', { step_id: 'S003', status: 'done' });
    expect(result).toMatchObject({
      success: true,
      message: 'Step S003 marked as done. Warning: Step S003 depends on S002, which is not done.',
    });
  });

  it('read_plan and renderPlan show ready and blocked steps', async () => {
    const { call, plan } = planning();
    await call('setup', chain);
    const read = await call('read', {});
    expect(read.message).toBe(
      'Retrieved the current plan with 4 steps.\nReady: S001\nBlocked: S002 (waiting on S001); S003 (waiting on S002); S004 (waiting on S001)',
    );
    expect(renderPlan(plan() as Plan, { dependencies: true })).toMatchInlineSnapshot(`
      "Objective: ship
      Status: active

      S001 [pending] design
      S002 [pending] build | depends on: S001
      S003 [pending] test | depends on: S002
      S004 [pending] docs | depends on: S001

      Ready: S001
      Blocked: S002 (waiting on S001); S003 (waiting on S002); S004 (waiting on S001)"
    `);
  });

  it('selectors: readySteps, blockedSteps, criticalPath', async () => {
    const { call, plan } = planning();
    await call('setup', chain);
    expect(readySteps(plan()).map((s) => s.step_id)).toEqual(['S001']);
    expect(blockedSteps(plan()).map((b) => [b.step.step_id, b.waitingOn])).toEqual([
      ['S002', ['S001']],
      ['S003', ['S002']],
      ['S004', ['S001']],
    ]);
    expect(criticalPath(plan()).map((s) => s.step_id)).toEqual(['S001', 'S002', 'S003']);
    await call('mark', { step_id: 'S001', status: 'done' });
    expect(readySteps(plan()).map((s) => s.step_id)).toEqual(['S002', 'S004']);
    expect(criticalPath(plan()).map((s) => s.step_id)).toEqual(['S002', 'S003']);
    expect(readySteps(undefined)).toEqual([]);
  });

  it('renderPlanMermaid draws the graph and escapes titles', async () => {
    const { call, plan } = planning();
    await call('setup', {
      objective: 'o',
      initial_steps: [{ title: 'say "hi" <b>' }, { title: 'b', depends_on: ['S001'] }],
    });
    expect(renderPlanMermaid(plan() as Plan)).toContain(
      'n0["S001 [pending] say #quot;hi#quot; #lt;b#gt;"]:::pending',
    );
    expect(renderPlanMermaid(plan() as Plan)).toContain('  n0 --> n1');
  });

  it('renderPlanMermaid shows titles in any language as written', async () => {
    const { call, plan } = planning(undefined, 'unicode');
    await call('setup', {
      objective: 'o',
      initial_steps: [
        { title: '\u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b' },
        { title: 'Ship v2 \u{1f680} \u2014 caf\u00e9 #1', depends_on: ['S001'] },
      ],
    });
    const mermaid = renderPlanMermaid(plan() as Plan);
    expect(mermaid).toContain(
      'n0["S001 [pending] \u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b"]:::pending',
    );
    expect(mermaid).toContain(
      'n1["S002 [pending] Ship v2 \u{1f680} \u2014 caf\u00e9 #35;1"]:::pending',
    );
  });

  it('renderPlanMermaid writes no %% from a title, so a title cannot open a Mermaid directive', async () => {
    // Mermaid reads `%%{init: ...}%%` anywhere in the text (quoted labels included) as a
    // config directive, taking `'` for `"`: a title the tools accept would restyle the chart.
    const { call, plan } = planning();
    const directive = "%%{init: {'theme':'dark','themeCSS':'.node rect{fill:red}'}}%%";
    expect(
      (await call('setup', { objective: 'o', initial_steps: [{ title: directive }] })).success,
    ).toBe(true);
    const mermaid = renderPlanMermaid(plan() as Plan);
    expect(mermaid).not.toContain('%%');
    // `#37;` is Mermaid's escape for `%`: the chart still shows the title as written.
    expect(mermaid).toContain(
      `n0["S001 [pending] #37;%{init: {'theme':'dark','themeCSS':'.node rect{fill:red}'}}#37;%"]`,
    );
    await call('update', { step_id: 'S001', title: '%%%%% 90% done' });
    expect(renderPlanMermaid(plan() as Plan)).toContain('] #37;#37;#37;#37;% 90% done"]');
  });

  it('a reducer refusal names the field as every refusal does: steps[1].depends_on[0]', () => {
    const session = new Session();
    registerPlanModelReducers(session);
    session.dispatch(SetupPlanWithDependencies, {
      objective: 'Ship',
      initial_steps: [{ title: 'Build', details: null, depends_on: [] }],
    });
    const added = session.dispatch(AddStepWithDependencies, {
      steps: [{ title: 'Test', details: null, depends_on: ['S009'] }],
    });
    expect(added.ok).toBe(false);
    if (!added.ok)
      expect((added.error.cause as ToolValidationError).field).toBe('steps[1].depends_on[0]');
  });

  it('the Plan schema refuses cycles and unknown ids on restore; a valid plan round-trips', async () => {
    const { session, call } = planning();
    await call('setup', chain);
    const json = JSON.stringify(snapshotToJSON(session.snapshot()));
    expect(snapshotFromJSON(json, planning().session)).toEqual({
      ok: true,
      value: session.snapshot(),
    });
    const cyclic = json.replace('"depends_on":[]', '"depends_on":["S003"]');
    const refusedCycle = snapshotFromJSON(cyclic, planning().session);
    expect(refusedCycle.ok).toBe(false);
    expect(refusedCycle.ok ? '' : refusedCycle.error.message).toContain(
      'S001 -> S003 -> S002 -> S001',
    );
    const unknown = snapshotFromJSON(
      json.replace('"depends_on":[]', '"depends_on":["S404"]'),
      planning().session,
    );
    expect(unknown.ok ? '' : unknown.error.message).toContain('S404');
  });

  it('cycle checks are iterative: a 100,000-step chain does not overflow the stack', () => {
    const steps = Array.from({ length: 100_000 }, (_, i) => ({
      step_id: `S${String(i + 1).padStart(3, '0')}`,
      title: 't',
      details: null,
      status: 'pending' as const,
      notes: [],
      depends_on: i === 0 ? [] : [`S${String(i).padStart(3, '0')}`],
    }));
    expect(Plan.safeParse({ objective: 'o', status: 'active', steps }).success).toBe(true);
    steps[0] = { ...steps[0], depends_on: ['S100000'] } as (typeof steps)[number];
    const result = Plan.safeParse({ objective: 'o', status: 'active', steps });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message.length).toBeLessThan(2000);
    expect(criticalPath({ objective: 'o', status: 'active', steps: steps.slice(1) }).length).toBe(
      99_999,
    );
  });
});
