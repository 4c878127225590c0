import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type DataType, dataTypeName } from '../define-data-type.ts';
import type { AnyTool } from '../define-tool.ts';
import { invokeTool } from '../invoke-tool.ts';
import { batch, dependencies, history, owners } from '../plan-model.ts';
import { selectAll } from '../select-all.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { ToolCall } from '../tool-call.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { createPlanningTools, type PlanningToolsOptions } from './create-planning-tools.ts';
import { Plan } from './plan.ts';
import { AddStep, ClearPlan, MarkStep, SetupPlan, UpdateStep } from './plan-commands.ts';
import type { PlanningExtension } from './planning-extension.ts';
import { shortToolNames } from './testing/short-tool-names.ts';

type ToolName = 'setup' | 'add' | 'update' | 'mark' | 'clear' | 'read';

function planning(options?: PlanningToolsOptions) {
  const session = new Session({ sessionId: 'test', clock: () => 1_700_000_000_000 });
  const tools = shortToolNames(createPlanningTools(session, options));
  const call = (name: ToolName, args: unknown) => invokeTool(tools[name], args, { session });
  const plan = () => selectLatest(session, Plan);
  return { session, tools, call, plan };
}

async function expectRefusal(
  result: Promise<{ success: boolean; message: string; value: unknown }>,
  message: string,
) {
  const settled = await result;
  expect(settled).toMatchObject({
    success: false,
    value: null,
    message: `Tool validation failed: ${message}`,
  });
}

const byName = (tools: readonly AnyTool[]) => tools as unknown as Record<string, AnyTool>;

const steps = (...titles: string[]) => titles.map((title) => ({ title }));

describe('createPlanningTools', () => {
  it('returns the six tools in the reference order', () => {
    const { tools } = planning();
    expect(Object.values(tools).map((tool) => tool.name)).toEqual([
      'planning_setup_plan',
      'planning_add_step',
      'planning_update_step',
      'planning_mark_step',
      'planning_clear_plan',
      'planning_read_plan',
    ]);
    for (const tool of Object.values(tools)) {
      expect(tool.name).toMatch(/^[a-z0-9_-]{1,64}$/);
      expect(tool.description).toMatch(/^[\x20-\x7e]{1,200}$/);
    }
  });

  it('registers the reducers once, however often it is called (the reference applied them twice)', async () => {
    const { session, call, plan } = planning();
    createPlanningTools(session);
    createPlanningTools(session, { inProgress: 'single' });
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    await call('add', { steps: steps('b') });
    await call('mark', { step_id: 'S001', status: 'done', note: 'n' });
    expect(plan()?.steps.map((s) => s.step_id)).toEqual(['S001', 'S002']);
    expect(plan()?.steps[0]?.notes).toEqual(['n']);
  });

  it('marks tools as not accepting overrides unless asked', () => {
    const session = new Session();
    expect(createPlanningTools(session).map((tool) => tool.acceptsOverrides)).toEqual(
      Array(6).fill(false),
    );
    expect(
      createPlanningTools(session, { acceptsOverrides: true }).every(
        (tool) => tool.acceptsOverrides,
      ),
    ).toBe(true);
    expect(() => createPlanningTools(session, { acceptsOverrides: 'yes' as never })).toThrow(
      /acceptsOverrides/,
    );
  });

  it('holds each tool under its name too, without changing the array', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [batch(), owners({ agent: 'a' })],
    });
    for (const tool of tools) expect(byName(tools)[tool.name]).toBe(tool);
    expect(tools.planning_mark_step.name).toBe('planning_mark_step');
    expect(tools.planning_apply_batch).toBe(tools[6]);
    expect(tools.planning_release_step).toBe(tools[8]);
    // Names are not enumerable: hosts that spread, list keys or serialise see the array only.
    expect(Object.keys(tools)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8']);
    expect([...tools]).toHaveLength(9);
    expect(JSON.stringify(tools)).toBe(JSON.stringify([...tools]));
    expect(Object.isFrozen(tools)).toBe(true);
    expect(() => {
      (tools as unknown as Record<string, unknown>)['planning_mark_step'] = null;
    }).toThrow(TypeError);
    expect('planning_apply_batch' in createPlanningTools(new Session())).toBe(false);
  });

  it("declares each tool's traits: strict, a title and the hints, none open-world", () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [batch(), owners({ agent: 'a' })],
    });
    for (const tool of tools) {
      expect(tool.traits.strict, tool.name).toBe(true);
      expect(tool.traits.openWorld, tool.name).toBe(false);
      expect(tool.traits.title, tool.name).toMatch(/^[A-Z]/);
      expect(tool.traits.readOnly, tool.name).toBe(tool.name === 'planning_read_plan');
    }
    expect(tools.planning_add_step.traits).toMatchObject({
      destructive: false,
      idempotent: false,
    });
    expect(tools.planning_setup_plan.traits).toMatchObject({
      destructive: true,
      idempotent: true,
    });
    // The dependency-aware and history-wrapped tools keep the traits of the tool they extend.
    const extended = createPlanningTools(new Session(), {
      extensions: [dependencies(), history()],
    });
    for (const tool of extended)
      expect(tool.traits, tool.name).toEqual(byName(tools)[tool.name]?.traits);
  });

  it('refuses unknown options and a missing session', () => {
    const session = new Session();
    expect(() => createPlanningTools(session, { inProgress: 'many' as never })).toThrow(
      /options.inProgress/,
    );
    expect(() => createPlanningTools(session, { extra: true } as never)).toThrow(/options.extra/);
    expect(() => createPlanningTools(session, { text: 'utf8' as never })).toThrow(
      'createPlanningTools: options.text must be one of ascii, unicode',
    );
    expect(() => createPlanningTools(undefined as never)).toThrow(/session must be a Session/);
  });
});

describe('extensions', () => {
  it('refuses the flags that became extensions, naming the replacement', () => {
    const session = new Session();
    const cases: readonly [string, RegExp][] = [
      [
        'dependencies',
        /options\.dependencies moved to an extension: pass extensions: \[dependencies\(\)\]/,
      ],
      [
        'batch',
        /options\.batch moved to an extension: pass extensions: \[batch\(\)\], imported from '@plankit\/core\/plan-model'/,
      ],
      ['history', /options\.history moved to an extension: pass extensions: \[history\(\)\]/],
      ['owners', /options\.owners moved to an extension/],
      [
        'agent',
        /options\.agent moved to an extension: pass the agent to owners\(\{ agent \}\) or history\(\{ agent \}\)/,
      ],
    ];
    for (const [flag, message] of cases)
      expect(() => createPlanningTools(session, { [flag]: true } as never)).toThrow(message);
  });

  it('refuses a non-extension, a repeated one, and two that disagree on the agent', () => {
    const session = new Session();
    expect(() => createPlanningTools(session, { extensions: 'batch' as never })).toThrow(
      /options\.extensions must be an array/,
    );
    expect(() => createPlanningTools(session, { extensions: [{}] as never })).toThrow(
      /options\.extensions\[0\] must be a planning extension/,
    );
    expect(() => createPlanningTools(session, { extensions: [batch(), batch()] })).toThrow(
      /options\.extensions\[1\] repeats batch/,
    );
    expect(() =>
      createPlanningTools(session, {
        extensions: [owners({ agent: 'a' }), history({ agent: 'b' })],
      }),
    ).toThrow(/must agree on the agent: "a" and "b" differ/);
  });

  it('puts the extension tools after the six, in the order the extensions are listed', () => {
    const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name).slice(6);
    const session = new Session();
    expect(
      names(createPlanningTools(session, { extensions: [owners({ agent: 'a' }), batch()] })),
    ).toEqual(['planning_claim_step', 'planning_release_step', 'planning_apply_batch']);
    expect(
      names(createPlanningTools(session, { extensions: [batch(), owners({ agent: 'a' })] })),
    ).toEqual(['planning_apply_batch', 'planning_claim_step', 'planning_release_step']);
  });

  it('runs an extension of your own: a mark check and an added tool', async () => {
    const session = new Session();
    const noBlocked: PlanningExtension<'no-blocked'> = {
      name: 'no-blocked',
      checkMark: (_plan, _index, status) => {
        if (status === 'blocked')
          throw new ToolValidationError('Say what you need instead of blocking.', {
            code: 'step_invalid',
            field: 'status',
          });
        return status === 'done' ? 'Well done.' : null;
      },
    };
    const tools = createPlanningTools(session, { extensions: [noBlocked] });
    await invokeTool(
      tools.planning_setup_plan,
      { objective: 'o', initial_steps: [{ title: 'a' }] },
      { session },
    );
    const refused = await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S001', status: 'blocked' },
      { session },
    );
    expect(refused).toMatchObject({
      success: false,
      message: expect.stringContaining('Say what you need'),
    });
    const done = await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S001', status: 'done' },
      { session },
    );
    expect(done.message).toBe('Step S001 marked as done. Well done.');
    const clash: PlanningExtension = {
      name: 'clash',
      tools: () => ({ add: [tools.planning_read_plan] }),
    };
    expect(() => createPlanningTools(session, { extensions: [clash] })).toThrow(
      /adds planning_read_plan, which another tool already is/,
    );
  });

  it('gives the same tools for the same extensions, whichever session they were built for', () => {
    const extensions = [dependencies(), batch()] as const;
    const a = createPlanningTools(new Session(), { extensions });
    const b = createPlanningTools(new Session(), { extensions });
    expect(a.map((tool) => [tool.name, tool.description])).toEqual(
      b.map((tool) => [tool.name, tool.description]),
    );
  });
});

describe('planning_setup_plan', () => {
  it('creates an active plan numbered from S001 and says how many steps', async () => {
    const { call, plan } = planning();
    const result = await call('setup', {
      objective: '  ship v2 ',
      initial_steps: [
        { title: ' draft ', details: '  ' },
        { title: 'review', details: ' x ' },
      ],
    });
    expect(result).toEqual({
      success: true,
      message: 'Plan initialised with 2 steps.',
      value: {
        objective: 'ship v2',
        initial_steps: [
          { title: 'draft', details: null },
          { title: 'review', details: 'x' },
        ],
      },
    });
    expect(plan()).toEqual({
      objective: 'ship v2',
      status: 'active',
      steps: [
        { step_id: 'S001', title: 'draft', details: null, status: 'pending', notes: [] },
        { step_id: 'S002', title: 'review', details: 'x', status: 'pending', notes: [] },
      ],
    });
  });

  it('uses the singular for one step and plural for zero', async () => {
    const { call, plan } = planning();
    expect((await call('setup', { objective: 'o', initial_steps: steps('a') })).message).toBe(
      'Plan initialised with 1 step.',
    );
    expect((await call('setup', { objective: 'o' })).message).toBe(
      'Plan initialised with 0 steps.',
    );
    expect(plan()).toEqual({ objective: 'o', status: 'active', steps: [] });
  });

  it('checks the objective, then each step title then details, in order', async () => {
    const { call } = planning();
    await expectRefusal(
      call('setup', { objective: ' ', initial_steps: steps('') }),
      'Objective must not be empty.',
    );
    await expectRefusal(
      call('setup', {
        objective: 'o',
        initial_steps: [{ title: 'a', details: 'é' }, { title: '' }],
      }),
      'Details must be ASCII.',
    );
    await expectRefusal(
      call('setup', {
        objective: 'o',
        initial_steps: [{ title: 'a' }, { title: ' ', details: 'é' }],
      }),
      'Title must not be empty.',
    );
  });

  it('replaces a plan in any state and restarts ids at S001', async () => {
    const { call, plan } = planning();
    await call('setup', { objective: 'first', initial_steps: steps('a', 'b', 'c') });
    await call('clear', {});
    expect(plan()?.status).toBe('abandoned');
    await call('setup', { objective: 'second', initial_steps: steps('x') });
    expect(plan()).toMatchObject({
      objective: 'second',
      status: 'active',
      steps: [{ step_id: 'S001', title: 'x' }],
    });
    await call('mark', { step_id: 'S001', status: 'done' });
    expect(plan()?.status).toBe('completed');
    await call('setup', { objective: 'third', initial_steps: steps('y') });
    expect(plan()?.status).toBe('active');
  });

  it('leaves the previous plan in place when a later title is blank', async () => {
    const { call, plan, session } = planning();
    await call('setup', { objective: 'keep', initial_steps: steps('a') });
    const before = session.snapshot();
    await expectRefusal(
      call('setup', { objective: 'new', initial_steps: steps('a', '  ') }),
      'Title must not be empty.',
    );
    expect(session.snapshot()).toBe(before);
    expect(plan()?.objective).toBe('keep');
  });

  it('leaves no plan when there was none', async () => {
    const { call, plan } = planning();
    await expectRefusal(
      call('setup', { objective: 'x'.repeat(241) }),
      'Objective must be <= 240 characters.',
    );
    expect(plan()).toBeUndefined();
  });
});

describe('text rules', () => {
  it('counts code points after trimming; exactly the limit passes', async () => {
    const { call, plan } = planning();
    expect((await call('setup', { objective: ` ${'a'.repeat(240)} ` })).success).toBe(true);
    await expectRefusal(
      call('setup', { objective: 'a'.repeat(241) }),
      'Objective must be <= 240 characters.',
    );
    expect(
      (await call('add', { steps: [{ title: 'b'.repeat(160), details: 'c'.repeat(512) }] }))
        .success,
    ).toBe(true);
    await expectRefusal(
      call('add', { steps: [{ title: 'b'.repeat(161) }] }),
      'Title must be <= 160 characters.',
    );
    await expectRefusal(
      call('add', { steps: [{ title: 'b', details: 'c'.repeat(513) }] }),
      'Details must be <= 512 characters.',
    );
    await expectRefusal(
      call('mark', { step_id: 'S001', status: 'done', note: 'n'.repeat(513) }),
      'Note must be <= 512 characters.',
    );
    expect(
      (await call('mark', { step_id: 'S001', status: 'done', note: 'n'.repeat(512) })).success,
    ).toBe(true);
    expect(plan()?.steps[0]?.notes).toEqual(['n'.repeat(512)]);
  });

  it('checks length before ASCII, and counts a character outside the BMP once', async () => {
    const { call } = planning();
    // 240 astral characters are 480 UTF-16 units but 240 code points: long enough, then not ASCII.
    await expectRefusal(call('setup', { objective: '😀'.repeat(240) }), 'Objective must be ASCII.');
    await expectRefusal(
      call('setup', { objective: '😀'.repeat(241) }),
      'Objective must be <= 240 characters.',
    );
    await expectRefusal(call('setup', { objective: 'café' }), 'Objective must be ASCII.');
  });

  it("trims Python's whitespace set, not JavaScript's", async () => {
    const { call, plan } = planning();
    await expectRefusal(
      call('setup', { objective: '\u001c\u0085\u00a0\u3000\t' }),
      'Objective must not be empty.',
    );
    // U+FEFF is not whitespace to the reference: it stays, and is not ASCII.
    await expectRefusal(call('setup', { objective: '\ufeffgoal' }), 'Objective must be ASCII.');
    await call('setup', { objective: '\u2003goal\u205f' });
    expect(plan()?.objective).toBe('goal');
  });

  it('refuses a megabyte string quickly with the length message', async () => {
    const { call } = planning();
    await expectRefusal(
      call('setup', { objective: `${' '.repeat(500_000)}x${' '.repeat(500_000)}y` }),
      'Objective must be <= 240 characters.',
    );
    await expectRefusal(
      call('setup', { objective: ' '.repeat(1_000_000) }),
      'Objective must not be empty.',
    );
    await expectRefusal(
      call('setup', { objective: 'é'.repeat(1_000_000) }),
      'Objective must be <= 240 characters.',
    );
  });

  it('reports the field path and code of a text error', async () => {
    const { call } = planning();
    const result = await call('setup', {
      objective: 'o',
      initial_steps: [{ title: 'a' }, { title: 'b', details: 'ü' }],
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(ToolValidationError.isInstance(result.error)).toBe(true);
    expect(result.error).toMatchObject({
      code: 'text_not_ascii',
      field: 'initial_steps[1].details',
    });
  });
});

describe('planning_add_step', () => {
  it('queues steps after the highest id', async () => {
    const { call, plan } = planning();
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    expect(await call('add', { steps: [{ title: ' b ', details: 'd' }] })).toEqual({
      success: true,
      message: 'Queued 1 step for addition.',
      value: { steps: [{ title: 'b', details: 'd' }] },
    });
    expect((await call('add', { steps: steps('c', 'd') })).message).toBe(
      'Queued 2 steps for addition.',
    );
    expect(plan()?.steps.map((s) => [s.step_id, s.title, s.status])).toEqual([
      ['S001', 'a', 'pending'],
      ['S002', 'b', 'pending'],
      ['S003', 'c', 'pending'],
      ['S004', 'd', 'pending'],
    ]);
    expect(plan()?.objective).toBe('o');
  });

  it('checks plan, active, each step, then at least one step', async () => {
    const { call } = planning();
    await expectRefusal(call('add', { steps: [] }), 'No plan is currently initialised.');
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    await expectRefusal(call('add', { steps: [] }), 'Provide at least one step to add.');
    await expectRefusal(
      call('add', { steps: [{ title: 'ok' }, { title: 'ok', details: '\u00e9' }] }),
      'Details must be ASCII.',
    );
    await call('mark', { step_id: 'S001', status: 'done' });
    await expectRefusal(
      call('add', { steps: [] }),
      'Plan must be active to add steps to. Current status: completed.',
    );
    await call('clear', {});
    await expectRefusal(
      call('add', { steps: steps('x') }),
      'Plan must be active to add steps to. Current status: abandoned.',
    );
  });

  it('continues past S999; a restored plan holds only ids the tools mint', async () => {
    const { call, plan, session } = planning();
    const restored = (step_id: string) =>
      session.dispatch(Plan, {
        objective: 'o',
        status: 'active',
        steps: [{ step_id, title: 'a', details: null, status: 'pending', notes: [] }],
      });
    for (const id of ['Sabc', 'S12x', 'S1', 'S0001', 'S000', '../../etc'])
      expect(restored(id).ok, id).toBe(false);
    expect(restored('S998').ok).toBe(true);
    await call('add', { steps: steps('d', 'e', 'f') });
    expect(plan()?.steps.map((s) => s.step_id)).toEqual(['S998', 'S999', 'S1000', 'S1001']);
  });

  it('never reuses an id within a plan', async () => {
    const { call, plan } = planning();
    await call('setup', { objective: 'o', initial_steps: steps('a', 'b') });
    await call('add', { steps: steps('c') });
    const ids = plan()?.steps.map((s) => s.step_id) ?? [];
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('planning_update_step', () => {
  it('replaces title and/or details and keeps status and notes', async () => {
    const { call, plan } = planning();
    await call('setup', { objective: 'o', initial_steps: [{ title: 'a', details: 'old' }] });
    await call('mark', { step_id: 'S001', status: 'blocked', note: 'waiting' });
    expect(await call('update', { step_id: ' S001 ', title: ' A ' })).toEqual({
      success: true,
      message: 'Step S001 update queued.',
      value: { step_id: 'S001', title: 'A', details: null },
    });
    expect(plan()?.steps[0]).toEqual({
      step_id: 'S001',
      title: 'A',
      details: 'old',
      status: 'blocked',
      notes: ['waiting'],
    });
    await call('update', { step_id: 'S001', details: 'new', title: null });
    expect(plan()?.steps[0]).toMatchObject({ title: 'A', details: 'new' });
  });

  it('checks in the reference order', async () => {
    const { call } = planning();
    await expectRefusal(call('update', { step_id: '' }), 'No plan is currently initialised.');
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    await expectRefusal(call('update', { step_id: '  ', title: '' }), 'Step ID must be provided.');
    await expectRefusal(
      call('update', { step_id: 'S00\u00b9', title: '' }),
      'Step_Id must be ASCII.',
    );
    await expectRefusal(
      call('update', { step_id: 'S999', title: ' ', details: '\u00e9' }),
      'Title must not be empty.',
    );
    await expectRefusal(
      call('update', { step_id: 'S999', details: '\u00e9' }),
      'Details must be ASCII.',
    );
    // The empty-patch check comes before the existence check.
    await expectRefusal(
      call('update', { step_id: 'S999' }),
      'Provide a new title or details to update a step.',
    );
    // Blank details become null, so details cannot be cleared through update.
    await expectRefusal(
      call('update', { step_id: 'S001', details: '   ' }),
      'Provide a new title or details to update a step.',
    );
    await expectRefusal(
      call('update', { step_id: 'S999', title: 't' }),
      'Step S999 does not exist.',
    );
    await expectRefusal(
      call('update', { step_id: 's001', title: 't' }),
      'Step s001 does not exist.',
    );
    await call('mark', { step_id: 'S001', status: 'done' });
    await expectRefusal(
      call('update', { step_id: 'S001', title: 't' }),
      'Plan must be active to update steps in. Current status: completed.',
    );
  });
});

describe('planning_mark_step', () => {
  it('finds a step by id whatever the order and numbering of a plan set by hand', async () => {
    const session = new Session();
    const { planning_mark_step: mark } = createPlanningTools(session);
    const step = (step_id: string) => ({
      step_id,
      title: step_id,
      details: null,
      status: 'pending' as const,
      notes: [],
    });
    const order = ['S007', 'S002', 'S001', 'S010', 'S003'];
    expect(
      session.dispatch(Plan, { objective: 'o', status: 'active', steps: order.map(step) }).ok,
    ).toBe(true);
    for (const id of [...order, 'S001']) {
      const result = await invokeTool(mark, { step_id: id, status: 'done' }, { session });
      expect(result.success).toBe(true);
      const plan = selectLatest(session, Plan);
      expect(plan?.steps.filter((s) => s.status === 'done').map((s) => s.step_id)).toContain(id);
      expect(plan?.steps.map((s) => s.step_id)).toEqual(order);
    }
    for (const id of ['S004', 'S0', 'S-1', 'S1.5', 'S1e1', 'S10 ']) {
      const refused = await invokeTool(mark, { step_id: id, status: 'done' }, { session });
      expect(refused.success, id).toBe(false);
    }
  });

  it('sets the status, accumulates notes and completes the plan when every step is done', async () => {
    const { call, plan } = planning();
    await call('setup', { objective: 'o', initial_steps: steps('a', 'b') });
    expect(
      await call('mark', { step_id: 'S001', status: 'in_progress', note: ' started ' }),
    ).toEqual({
      success: true,
      message: 'Step S001 marked as in_progress.',
      value: { step_id: 'S001', status: 'in_progress', note: 'started' },
    });
    await call('mark', { step_id: 'S001', status: 'done', note: 'finished' });
    await call('mark', { step_id: 'S001', status: 'done' });
    expect(plan()?.steps[0]?.notes).toEqual(['started', 'finished']);
    expect(plan()?.status).toBe('active');
    await call('mark', { step_id: 'S002', status: 'done' });
    expect(plan()?.status).toBe('completed');
    // A completed plan may be marked: it reopens, then completes again.
    await call('mark', { step_id: 'S002', status: 'blocked' });
    expect(plan()?.status).toBe('active');
    await call('mark', { step_id: 'S002', status: 'done' });
    expect(plan()?.status).toBe('completed');
  });

  it('checks in the reference order', async () => {
    const { call } = planning();
    await expectRefusal(
      call('mark', { step_id: '', status: 'done' }),
      'No plan is currently initialised.',
    );
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    await expectRefusal(
      call('mark', { step_id: ' ', status: 'done', note: ' ' }),
      'Step ID must be provided.',
    );
    await expectRefusal(
      call('mark', { step_id: '\u00a7', status: 'done' }),
      'Step_Id must be ASCII.',
    );
    await expectRefusal(
      call('mark', { step_id: 'S404', status: 'done', note: ' ' }),
      'Step S404 does not exist.',
    );
    await expectRefusal(
      call('mark', { step_id: 'S001', status: 'done', note: ' ' }),
      'Note must not be empty when provided.',
    );
    await expectRefusal(
      call('mark', { step_id: 'S001', status: 'done', note: '\u00e9' }),
      'Note must be ASCII.',
    );
    await call('clear', {});
    await expectRefusal(
      call('mark', { step_id: '', status: 'done' }),
      'Cannot mark steps on an abandoned plan.',
    );
  });

  it('refuses an unknown status with a clear message (a plankit fix)', async () => {
    const { call, session } = planning();
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    const before = session.snapshot();
    const result = await call('mark', { step_id: 'S001', status: 'finished' });
    expect(result.message).toBe(
      'Tool validation failed: status: Status must be one of: pending, in_progress, blocked, done.',
    );
    expect(session.snapshot()).toBe(before);
  });

  it("with inProgress 'single', refuses a second in-progress step and names the first", async () => {
    const { call, plan } = planning({ inProgress: 'single' });
    await call('setup', { objective: 'o', initial_steps: steps('a', 'b') });
    await call('mark', { step_id: 'S001', status: 'in_progress' });
    expect((await call('mark', { step_id: 'S001', status: 'in_progress' })).success).toBe(true);
    const refused = await call('mark', { step_id: 'S002', status: 'in_progress' });
    expect(refused.message).toBe(
      'Tool validation failed: Keep at most one step in_progress at a time. Step S001 is already in_progress; mark it done, blocked or pending first.',
    );
    expect(refused.success === false && refused.error.code).toBe('step_in_progress');
    await call('mark', { step_id: 'S001', status: 'done' });
    expect((await call('mark', { step_id: 'S002', status: 'in_progress' })).success).toBe(true);
    expect(plan()?.steps.map((s) => s.status)).toEqual(['done', 'in_progress']);
  });

  it('allows several in-progress steps by default (the reference behaviour)', async () => {
    const { call } = planning();
    await call('setup', { objective: 'o', initial_steps: steps('a', 'b') });
    await call('mark', { step_id: 'S001', status: 'in_progress' });
    expect((await call('mark', { step_id: 'S002', status: 'in_progress' })).success).toBe(true);
  });
});

describe('planning_clear_plan and planning_read_plan', () => {
  it('abandons the plan, keeping the objective and dropping the steps', async () => {
    const { call, plan } = planning();
    await expectRefusal(call('clear', {}), 'No plan is currently initialised.');
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    expect(await call('clear', {})).toEqual({
      success: true,
      message: 'Plan marked as abandoned.',
      value: {},
    });
    expect(plan()).toEqual({ objective: 'o', status: 'abandoned', steps: [] });
    await expectRefusal(call('clear', {}), 'Plan already abandoned.');
  });

  it('clears a completed plan', async () => {
    const { call, plan } = planning();
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    await call('mark', { step_id: 'S001', status: 'done' });
    expect((await call('clear', {})).success).toBe(true);
    expect(plan()?.status).toBe('abandoned');
  });

  it('reads the plan in every state', async () => {
    const { call, plan } = planning();
    await expectRefusal(call('read', {}), 'No plan is currently initialised.');
    await call('setup', { objective: 'o' });
    expect(await call('read', {})).toEqual({
      success: true,
      message: 'Retrieved the current plan (no steps recorded).',
      value: plan(),
    });
    await call('add', { steps: steps('a') });
    expect((await call('read', {})).message).toBe('Retrieved the current plan with 1 step.');
    await call('add', { steps: steps('b') });
    expect((await call('read', {})).message).toBe('Retrieved the current plan with 2 steps.');
    await call('clear', {});
    expect((await call('read', {})).message).toBe(
      'Retrieved the current plan (no steps recorded).',
    );
  });

  it('keeps one plan in the slice and one log entry per successful call', async () => {
    const { call, session } = planning();
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    await call('add', { steps: steps('b') });
    await call('mark', { step_id: 'S404', status: 'done' });
    await call('read', {});
    expect(selectAll(session, Plan)).toHaveLength(1);
    expect(selectAll(session, ToolCall).map((entry) => entry.tool)).toEqual([
      'planning_setup_plan',
      'planning_add_step',
      'planning_read_plan',
    ]);
    expect(selectAll(session, ToolCall)[1]).toEqual({
      tool: 'planning_add_step',
      params: { steps: [{ title: 'b', details: null }] },
      result: {
        success: true,
        message: 'Queued 1 step for addition.',
        value: { steps: [{ title: 'b', details: null }] },
      },
      at: 1_700_000_000_000,
    });
  });
});

describe('the lifecycle table', () => {
  const states = ['none', 'active', 'completed', 'abandoned'] as const;
  const expected: Record<ToolName, Record<(typeof states)[number], string>> = {
    setup: { none: 'ok', active: 'ok', completed: 'ok', abandoned: 'ok' },
    add: {
      none: 'No plan is currently initialised.',
      active: 'ok',
      completed: 'Plan must be active to add steps to. Current status: completed.',
      abandoned: 'Plan must be active to add steps to. Current status: abandoned.',
    },
    update: {
      none: 'No plan is currently initialised.',
      active: 'ok',
      completed: 'Plan must be active to update steps in. Current status: completed.',
      abandoned: 'Plan must be active to update steps in. Current status: abandoned.',
    },
    mark: {
      none: 'No plan is currently initialised.',
      active: 'ok',
      completed: 'ok',
      abandoned: 'Cannot mark steps on an abandoned plan.',
    },
    clear: {
      none: 'No plan is currently initialised.',
      active: 'ok',
      completed: 'ok',
      abandoned: 'Plan already abandoned.',
    },
    read: {
      none: 'No plan is currently initialised.',
      active: 'ok',
      completed: 'ok',
      abandoned: 'ok',
    },
  };
  const args: Record<ToolName, unknown> = {
    setup: { objective: 'n', initial_steps: steps('x') },
    add: { steps: steps('x') },
    update: { step_id: 'S001', title: 'x' },
    mark: { step_id: 'S001', status: 'pending' },
    clear: {},
    read: {},
  };

  for (const tool of Object.keys(expected) as ToolName[]) {
    for (const state of states) {
      it(`${tool} on ${state}`, async () => {
        const { call } = planning();
        if (state !== 'none') await call('setup', { objective: 'o', initial_steps: steps('a') });
        if (state === 'completed') await call('mark', { step_id: 'S001', status: 'done' });
        if (state === 'abandoned') await call('clear', {});
        const result = await call(tool, args[tool]);
        const want = expected[tool][state];
        if (want === 'ok') expect(result).toMatchObject({ success: true });
        else expect(result.message).toBe(`Tool validation failed: ${want}`);
      });
    }
  }
});

describe('hardening', () => {
  const pendingStep = (step_id: string) => ({
    step_id,
    title: 't',
    details: null,
    status: 'pending' as const,
    notes: [],
  });

  it('refuses add_step when the next id would not be a safe integer, so ids never collide (defect 2)', async () => {
    const { call, plan, session } = planning();
    const top = Number.MAX_SAFE_INTEGER;
    expect(
      session.dispatch(Plan, {
        objective: 'o',
        status: 'active',
        steps: [pendingStep(`S${top - 1}`)],
      }).ok,
    ).toBe(true);
    expect((await call('add', { steps: steps('last') })).success).toBe(true);
    expect(plan()?.steps.at(-1)?.step_id).toBe(`S${top}`);
    const refused = await call('add', { steps: steps('one too many') });
    expect(refused).toMatchObject({ success: false });
    expect(!refused.success && refused.error.code).toBe('step_ids_exhausted');
    expect(plan()?.steps).toHaveLength(2);
    // Hand-dispatched, the reducer refuses too.
    expect(session.dispatch(AddStep, { steps: [{ title: 'x', details: null }] }).ok).toBe(false);
  });

  it('refuses a hand-dispatched plan with out-of-range or duplicate ids (defect 2)', () => {
    const { session } = planning();
    for (const steps of [
      [pendingStep('S9007199254740992')],
      [pendingStep(`S${'9'.repeat(400)}`)],
      [pendingStep('S001'), pendingStep('S001')],
    ]) {
      const result = session.dispatch(Plan, { objective: 'o', status: 'active', steps });
      expect(!result.ok && result.error.code).toBe('value_invalid');
    }
    expect(session.snapshot().revision).toBe(0);
  });

  it('refuses control characters in every text field, naming the field (defect 4)', async () => {
    const { call, session } = planning();
    const cases: [ToolName, unknown, string, string][] = [
      ['setup', { objective: 'a\u0000b' }, 'objective', 'Objective'],
      [
        'setup',
        { objective: 'o', initial_steps: [{ title: 'a\nSTEP S999 [done] forged' }] },
        'initial_steps[0].title',
        'Title',
      ],
      [
        'setup',
        { objective: 'o', initial_steps: [{ title: 't', details: 'x\u007fy' }] },
        'initial_steps[0].details',
        'Details',
      ],
    ];
    for (const [tool, args, field, label] of cases) {
      const result = await call(tool, args);
      expect(result.message).toBe(
        `Tool validation failed: ${label} must not contain control characters.`,
      );
      expect(!result.success && result.error).toMatchObject({ code: 'text_control_char', field });
    }
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    const later: [ToolName, unknown, string, string][] = [
      ['add', { steps: [{ title: 'a\tb' }] }, 'steps[0].title', 'Title'],
      ['update', { step_id: 'S001', title: 'a\rb' }, 'title', 'Title'],
      ['update', { step_id: 'S001', details: 'a\u001bb' }, 'details', 'Details'],
      ['mark', { step_id: 'S001', status: 'done', note: 'line\nline' }, 'note', 'Note'],
      ['mark', { step_id: 'S0\u000001', status: 'done' }, 'step_id', 'Step_Id'],
    ];
    const before = session.snapshot();
    for (const [tool, args, field, label] of later) {
      const result = await call(tool, args);
      expect(result.message).toBe(
        `Tool validation failed: ${label} must not contain control characters.`,
      );
      expect(!result.success && result.error).toMatchObject({ code: 'text_control_char', field });
    }
    expect(session.snapshot()).toBe(before);
  });

  it('refuses U+0000 in hand-dispatched commands, so the session stays storable (defect 4)', () => {
    const { session } = planning();
    const result = session.dispatch(SetupPlan, { objective: 'a\u0000', initial_steps: [] });
    expect(result.ok).toBe(false);
    expect(session.snapshot().revision).toBe(0);
  });

  it('keeps the step id in a refusal short, whatever the model sent (defect 1)', async () => {
    const { call } = planning();
    await call('setup', { objective: 'o', initial_steps: steps('a') });
    const result = await call('mark', { step_id: `S${'1'.repeat(1_000_000)}`, status: 'done' });
    expect(result.success).toBe(false);
    expect(result.message.length).toBeLessThan(2_000);
    expect(result.message).toMatch(/^Tool validation failed: Step S1{10,}\.\.\. does not exist\.$/);
  });

  it('works fully on the session it is invoked with, whichever session made the tools (defect 13)', async () => {
    const a = new Session({ sessionId: 'a' });
    const b = new Session({ sessionId: 'b' });
    const {
      planning_setup_plan: setup,
      planning_add_step: add,
      planning_mark_step: mark,
      planning_read_plan: read,
    } = createPlanningTools(a);
    const made = await invokeTool(
      setup,
      { objective: 'o', initial_steps: steps('x') },
      { session: b },
    );
    expect(made).toMatchObject({ success: true, message: 'Plan initialised with 1 step.' });
    expect(selectLatest(b, Plan)?.steps.map((s) => s.step_id)).toEqual(['S001']);
    expect((await invokeTool(add, { steps: steps('y') }, { session: b })).success).toBe(true);
    expect(
      (await invokeTool(mark, { step_id: 'S002', status: 'done' }, { session: b })).success,
    ).toBe(true);
    expect((await invokeTool(read, {}, { session: b })).message).toBe(
      'Retrieved the current plan with 2 steps.',
    );
    expect(selectLatest(a, Plan)).toBeUndefined();
    expect(a.snapshot().revision).toBe(0);
  });
});

// The titles of the issue that asked for plans in any language.
const WORLD_TITLES = [
  'Caf\u00e9 menu',
  'Write the README \u2014 then ship',
  'Don\u2019t forget tests',
  '\u7ffb\u8a33\u3092\u78ba\u8a8d\u3059\u308b',
  'Ship v2 \u{1f680}',
];

describe("text: 'unicode'", () => {
  it('accepts the titles in unicode mode; ascii mode refuses them as before', async () => {
    const unicode = planning({ text: 'unicode' });
    const set = await unicode.call('setup', {
      objective: '\u591a\u8a00\u8a9e\u306e\u8a08\u753b',
      initial_steps: steps(...WORLD_TITLES),
    });
    expect(set.success).toBe(true);
    expect(unicode.plan()?.steps.map((step) => step.title)).toEqual(WORLD_TITLES);
    const ascii = planning();
    for (const title of WORLD_TITLES) {
      await expectRefusal(
        ascii.call('setup', { objective: 'o', initial_steps: steps(title) }),
        'Title must be ASCII.',
      );
    }
    expect(ascii.plan()).toBeUndefined();
  });

  it('stores decomposed and precomposed text as the same NFC text', async () => {
    const { call, plan } = planning({ text: 'unicode' });
    await call('setup', { objective: 'cafe\u0301', initial_steps: steps('caf\u00e9') });
    expect(plan()?.objective).toBe('caf\u00e9');
    expect(plan()?.objective).toBe(plan()?.steps[0]?.title);
    await call('update', { step_id: 'S001', details: ' Cre\u0300me bru\u0302le\u0301e ' });
    await call('mark', { step_id: 'S001', status: 'in_progress', note: 'n\u0303' });
    await call('add', { steps: [{ title: 'A\u030a', details: null }] });
    const stored = plan();
    expect(stored?.steps[0]?.details).toBe('Cr\u00e8me br\u00fbl\u00e9e');
    expect(stored?.steps[0]?.notes).toEqual(['\u00f1']);
    expect(stored?.steps[1]?.title).toBe('\u00c5');
  });

  it('refuses hidden and reordering characters in every text field, naming field and code point', async () => {
    const { call, plan } = planning({ text: 'unicode' });
    await expectRefusal(
      call('setup', { objective: 'pay \u202egnp.exe', initial_steps: [] }),
      'Objective must not contain U+202E (a bidirectional control).',
    );
    await call('setup', { objective: 'o', initial_steps: steps('t') });
    const before = plan();
    await expectRefusal(
      call('add', { steps: [{ title: 'ok', details: 'x\u{e0049}\u{e0047}' }] }),
      'Details must not contain U+E0049 (an invisible character).',
    );
    await expectRefusal(
      call('update', { step_id: 'S001', title: 'zero\u200bwidth' }),
      'Title must not contain U+200B (an invisible character).',
    );
    await expectRefusal(
      call('mark', { step_id: 'S001', status: 'done', note: 'line\u2028break' }),
      'Note must not contain U+2028 (a line separator).',
    );
    const refused = await call('update', { step_id: 'S001', title: 'a\u0007' });
    expect(refused.success || refused.error).toMatchObject({
      code: 'text_control_char',
      field: 'title',
      message: 'Title must not contain U+0007 (a control character).',
    });
    expect(plan()).toBe(before);
  });

  it('describes text as characters in unicode mode and as ASCII characters in ascii mode', () => {
    const wire = (options: PlanningToolsOptions) =>
      createPlanningTools(new Session(), options).map((tool) =>
        JSON.stringify(z.toJSONSchema(tool.parameters, { io: 'input' })),
      );
    const extensions = [dependencies(), batch(), owners({ agent: 'a' }), history()];
    for (const schema of [...wire({ text: 'unicode' }), ...wire({ text: 'unicode', extensions })])
      expect(schema).not.toContain('ASCII');
    const unicode = wire({ text: 'unicode' });
    expect(unicode[0]).toContain('What the plan achieves, 1-240 characters.');
    expect(unicode[3]).toContain('Optional note, up to 512 characters.');
    expect(wire({ text: 'unicode', extensions })[2]).toContain('New title, 1-160 characters.');
    // Ascii mode: the reference copy, and the same schema objects as before.
    const ascii = createPlanningTools(new Session());
    expect(ascii.planning_setup_plan.parameters).toBe(SetupPlan);
    expect(ascii.planning_add_step.parameters).toBe(AddStep);
    expect(wire({})[0]).toContain('What the plan achieves, 1-240 ASCII characters.');
    expect(wire({ extensions })[2]).toContain('New title, 1-160 ASCII characters.');
    // Built once per mode, whatever the session.
    expect(createPlanningTools(new Session(), { text: 'unicode' })[0]?.parameters).toBe(
      createPlanningTools(new Session(), { text: 'unicode' })[0]?.parameters,
    );
  });

  it('describes text in every result type by the same rule as the parameters', () => {
    // What hosts derive from resultType (MCP's outputSchema): history's result is unknown to
    // JSON Schema in part, hence `any` for what cannot be represented.
    const results = (options: PlanningToolsOptions) =>
      createPlanningTools(new Session(), options).flatMap((tool) =>
        tool.resultType === null
          ? []
          : [
              [
                tool.name,
                JSON.stringify(
                  z.toJSONSchema(tool.resultType, { io: 'output', unrepresentable: 'any' }),
                ),
              ] as const,
            ],
      );
    const extensionSets: PlanningExtension[][] = [
      [],
      [dependencies()],
      [batch()],
      [owners({ agent: 'a' })],
      [history()],
      [dependencies(), batch(), owners({ agent: 'a' }), history()],
    ];
    for (const extensions of extensionSets)
      for (const [name, schema] of results({ text: 'unicode', extensions }))
        expect(schema, `${name} with ${extensions.map((e) => e.name)}`).not.toContain('ASCII');
    const unicode = Object.fromEntries(results({ text: 'unicode' }));
    expect(unicode['planning_setup_plan']).toContain('What the plan achieves, 1-240 characters.');
    expect(unicode['planning_setup_plan']).toContain('Step title, 1-160 characters.');
    expect(unicode['planning_update_step']).toContain('New details, up to 512 characters.');
    expect(unicode['planning_mark_step']).toContain('Optional note, up to 512 characters.');
    // Ascii mode: the reference data types, their copy unchanged; the unicode schemas are the
    // same but for the words naming the rule.
    const ascii = createPlanningTools(new Session());
    expect(ascii.map((tool) => tool.resultType)).toEqual([
      SetupPlan,
      AddStep,
      UpdateStep,
      MarkStep,
      ClearPlan,
      null,
    ]);
    const asciiResults = Object.fromEntries(results({}));
    expect(asciiResults['planning_setup_plan']).toContain(
      'What the plan achieves, 1-240 ASCII characters.',
    );
    expect(asciiResults['planning_add_step']).toContain('Step title, 1-160 ASCII characters.');
    expect(asciiResults['planning_update_step']).toContain(
      'New details, up to 512 ASCII characters.',
    );
    expect(asciiResults['planning_mark_step']).toContain(
      'Optional note, up to 512 ASCII characters.',
    );
    for (const [name, schema] of Object.entries(asciiResults))
      expect(unicode[name]).toBe(schema.replaceAll('ASCII characters', 'characters'));
  });

  it('names the unicode result types as the reference data types, built once', async () => {
    const tools = createPlanningTools(new Session(), { text: 'unicode' });
    const again = createPlanningTools(new Session(), { text: 'unicode' });
    for (const [index, tool] of tools.entries()) {
      // One schema per tool: its parameters are its result type, as in ascii mode.
      if (tool.resultType !== null && index < 4) expect(tool.parameters).toBe(tool.resultType);
      expect(again[index]?.resultType).toBe(tool.resultType);
    }
    expect(tools.slice(0, 5).map((tool) => dataTypeName(tool.resultType as DataType))).toEqual([
      'plankit.SetupPlan',
      'plankit.AddStep',
      'plankit.UpdateStep',
      'plankit.MarkStep',
      'plankit.ClearPlan',
    ]);
    // A session with the reference reducers reduces them, as values of the same data types.
    const { call, plan, session } = planning({ text: 'unicode' });
    expect((await call('setup', { objective: '計画', initial_steps: steps('a') })).success).toBe(
      true,
    );
    expect((await call('add', { steps: steps('étape') })).success).toBe(true);
    expect((await call('update', { step_id: 'S001', details: '詳細' })).success).toBe(true);
    expect((await call('mark', { step_id: 'S002', status: 'done', note: 'fini ✅' })).success).toBe(
      true,
    );
    expect(plan()?.steps).toMatchObject([
      { title: 'a', details: '詳細', status: 'pending' },
      { title: 'étape', status: 'done', notes: ['fini ✅'] },
    ]);
    expect(session.dispatch(MarkStep, MarkStep.parse({ step_id: 'S001', status: 'done' })).ok).toBe(
      true,
    );
    expect(plan()?.status).toBe('completed');
  });

  it('keeps step ids ASCII', async () => {
    const { call } = planning({ text: 'unicode' });
    await call('setup', { objective: 'o', initial_steps: steps('t') });
    await expectRefusal(
      call('mark', { step_id: 'S\u0661', status: 'done' }),
      'Step_Id must be ASCII.',
    );
  });

  it('reaches the extension tools: dependencies, batch, owners and history', async () => {
    const session = new Session({ sessionId: 'unicode', clock: () => 0 });
    const tools = createPlanningTools(session, {
      text: 'unicode',
      extensions: [dependencies(), batch(), owners({ agent: 'worker-1' }), history()],
    });
    const set = await invokeTool(
      tools.planning_setup_plan,
      {
        objective: '\u30ea\u30ea\u30fc\u30b9',
        initial_steps: [{ title: '\u7ffb\u8a33', depends_on: [] }],
        explanation: '\u6700\u521d\u306e\u8a08\u753b',
      },
      { session },
    );
    expect(set.success).toBe(true);
    const applied = await invokeTool(
      tools.planning_apply_batch,
      {
        operations: [
          { op: 'add', title: 'Ship v2 \u{1f680}', depends_on: ['S001'] },
          { op: 'update', step_id: 'S001', details: 'cafe\u0301' },
          { op: 'note', step_id: 'S001', note: 'Don\u2019t forget tests' },
        ],
        explanation: '\u00e9tape suivante',
      },
      { session },
    );
    expect(applied.success).toBe(true);
    await invokeTool(tools.planning_claim_step, { step_id: 'S001' }, { session });
    const plan = selectLatest(session, Plan);
    expect(plan?.objective).toBe('\u30ea\u30ea\u30fc\u30b9');
    expect(plan?.steps.map((step) => step.title)).toEqual(['\u7ffb\u8a33', 'Ship v2 \u{1f680}']);
    expect(plan?.steps[0]).toMatchObject({
      details: 'caf\u00e9',
      notes: ['Don\u2019t forget tests'],
      owner: 'worker-1',
    });
    const refused = await invokeTool(
      tools.planning_apply_batch,
      { operations: [{ op: 'note', step_id: 'S002', note: 'a\u2066b' }] },
      { session },
    );
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('U+2066 (a bidirectional control)');
    const explained = await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S001', status: 'done', explanation: 'hidden\u{e0041}' },
      { session },
    );
    expect(explained.success || explained.error).toMatchObject({
      code: 'text_invisible',
      field: 'explanation',
    });
    const ascii = createPlanningTools(new Session(), { extensions: [dependencies(), batch()] });
    const asciiSession = new Session();
    const refusedAscii = await invokeTool(
      ascii.planning_setup_plan,
      { objective: '\u30ea\u30ea\u30fc\u30b9' },
      { session: asciiSession },
    );
    expect(refusedAscii.message).toBe('Tool validation failed: Objective must be ASCII.');
  });
});
