import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineDataType } from '../define-data-type.ts';
import { invokeTool } from '../invoke-tool.ts';
import { batch, dependencies, history, owners, PLAN_MODEL_COMMANDS } from '../plan-model.ts';
import type { Reducer } from '../reducer.ts';
import { replaceLatest } from '../replace-latest.ts';
import { Session } from '../session.ts';
import { ToolValidationError } from '../tool-validation-error.ts';
import { createPlanningTools } from './create-planning-tools.ts';
import type { AnyPlanningCommand, PlanningExtension } from './planning-extension.ts';
import { registerPlanModelReducers } from './register-plan-model-reducers.ts';
import { planningCommandsOf, registerPlanningExtensions } from './register-planning-extensions.ts';

describe('registerPlanningExtensions and planningCommandsOf', () => {
  it('registers what a list declares, and records the commands for the session\u2019s stores', () => {
    const session = new Session();
    const seen: (readonly AnyPlanningCommand[])[] = [];
    const spy: PlanningExtension = { name: 'spy', register: (_, commands) => seen.push(commands) };
    expect(planningCommandsOf(session).size).toBe(0);
    registerPlanningExtensions(session, [batch(), spy, owners({ agent: 'lead' })]);
    expect([...planningCommandsOf(session).keys()]).toEqual([
      'plankit.PlanBatch',
      'plankit.ClaimStep',
      'plankit.ReleaseStep',
    ]);
    expect(seen[0]?.map((command) => command.dataType)).toEqual([
      ...planningCommandsOf(session).values(),
    ]);
    // Twice is a no-op: the same reducers, the same list.
    registerPlanningExtensions(session, [batch()]);
    expect(planningCommandsOf(session).size).toBe(3);
  });

  it('registers the data types an extension keeps outside the plan, and records them too', () => {
    // A counter slice of its own and a command routed to it, as an app would declare them.
    const Counter = defineDataType('example.Counter', z.number().int());
    const Bump = defineDataType('example.Bump', z.strictObject({ by: z.number().int() }));
    const bump: Reducer<number, { by: number }> = (counts, event) => [
      (counts.at(-1) ?? 0) + event.value.by,
    ];
    const counters: PlanningExtension = {
      name: 'counters',
      dataTypes: [
        { dataType: Counter, reducer: replaceLatest },
        { dataType: Bump, reducer: bump, slice: Counter },
      ],
    };
    const session = new Session();
    registerPlanningExtensions(session, [batch(), counters]);
    registerPlanningExtensions(session, [counters]);
    expect([...planningCommandsOf(session).keys()]).toEqual([
      'plankit.PlanBatch',
      'example.Counter',
      'example.Bump',
    ]);
    session.dispatch(Bump, { by: 2 });
    session.dispatch(Bump, { by: 3 });
    // Registered once, however often the extension was: each bump applied once.
    expect(session.select(Counter)).toEqual([5]);
    expect(session.sliceTypes().has('example.Counter')).toBe(true);
    expect(session.sliceTypes().has('example.Bump')).toBe(false);
  });

  it('records what registerPlanModelReducers registers: PLAN_MODEL_COMMANDS', () => {
    const session = new Session();
    registerPlanModelReducers(session);
    expect([...planningCommandsOf(session).values()]).toEqual([...PLAN_MODEL_COMMANDS]);
  });

  it('refuses a missing session, a list that is not one, and a repeated name', () => {
    expect(() => registerPlanningExtensions({} as never, [])).toThrow(
      'registerPlanningExtensions: session must be a Session.',
    );
    expect(() => registerPlanningExtensions(new Session(), {} as never)).toThrow(
      'registerPlanningExtensions: extensions must be an array.',
    );
    expect(() => registerPlanningExtensions(new Session(), [batch(), batch()])).toThrow(
      'registerPlanningExtensions: extensions[1] repeats batch.',
    );
  });

  it('names a repeated long or multi-line extension name clipped, on one line', () => {
    const name = `x\n${'y'.repeat(5000)}`;
    const mine: PlanningExtension = { name };
    let message = '';
    try {
      registerPlanningExtensions(new Session(), [mine, { name }]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith('registerPlanningExtensions: extensions[1] repeats x\\nyyy')).toBe(
      true,
    );
    expect(message.length).toBeLessThan(300);
    expect(message).not.toContain('\n');
  });
});

describe('settings and checks the extensions share', () => {
  it('refuses two extensions that give one setting different values, naming it', () => {
    expect(() =>
      createPlanningTools(new Session(), {
        extensions: [owners({ agent: 'a' }), history({ agent: 'b' })],
      }),
    ).toThrow(
      'createPlanningTools: options.extensions must agree on the agent: "a" and "b" differ.',
    );
    const shape = (name: string, size: number): PlanningExtension => ({
      name,
      settings: { size },
    });
    expect(() =>
      createPlanningTools(new Session(), { extensions: [shape('x', 1), shape('y', 2)] }),
    ).toThrow('must agree on the size: 1 and 2 differ.');
    const tools = createPlanningTools(new Session(), {
      extensions: [shape('x', 1), shape('y', 1), owners({ agent: 'a' }), history({ agent: 'a' })],
    });
    expect(tools).toHaveLength(8);
  });

  it('hands every extension\u2019s mark checks to extension tools: planning_apply_batch runs them', async () => {
    const session = new Session();
    const frozen: PlanningExtension = {
      name: 'frozen',
      checkMarkTarget: (step) => {
        if (step.title === 'Frozen')
          throw new ToolValidationError(`Step ${step.step_id} is frozen.`, {
            code: 'step_frozen',
          });
      },
      checkMark: (_plan, _index, status) =>
        status === 'blocked' ? 'Say why it is blocked.' : null,
    };
    const tools = createPlanningTools(session, { extensions: [dependencies(), batch(), frozen] });
    const applied = await invokeTool(
      tools.planning_apply_batch,
      {
        operations: [
          { op: 'setup', objective: 'Ship' },
          { op: 'add', title: 'Build' },
          { op: 'add', title: 'Frozen' },
          { op: 'mark', step_id: 'S001', status: 'blocked' },
        ],
      },
      { session },
    );
    expect(applied).toMatchObject({ success: true });
    expect(applied.success && applied.message).toContain('Say why it is blocked.');
    const refused = await invokeTool(
      tools.planning_apply_batch,
      { operations: [{ op: 'note', step_id: 'S002', note: 'thawing' }] },
      { session },
    );
    expect(refused).toMatchObject({ success: false });
    expect(refused.success ? '' : refused.error.message).toContain('Step S002 is frozen');
    const mark = await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S002', status: 'done' },
      { session },
    );
    expect(mark.success ? '' : mark.error.message).toContain('Step S002 is frozen');
  });
});
