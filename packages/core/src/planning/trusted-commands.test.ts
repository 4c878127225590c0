import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { DataType } from '../define-data-type.ts';
import { defineTool } from '../define-tool.ts';
import { isTrustedAs } from '../internal/trusted-value.ts';
import { invokeTool } from '../invoke-tool.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { createPlanningTools } from './create-planning-tools.ts';
import { Plan } from './plan.ts';
import {
  AddStep,
  ClearPlan,
  isTrustedMark,
  MarkStep,
  SetupPlan,
  UpdateStep,
} from './plan-commands.ts';
import { markStepReducer } from './planning-reducers.ts';
import { shortToolNames } from './testing/short-tool-names.ts';

// invokeTool skips the second schema parse of a value a reference handler built, and the mark
// reducer reuses the handler's step search for that call. These tests pin what makes that safe.

const NOW = 1_700_000_000_000;

function planning() {
  const session = new Session({ sessionId: 'trusted', clock: () => NOW });
  const { setup, add, update, mark, clear } = shortToolNames(createPlanningTools(session));
  const context = { session, now: NOW, toolName: 'test' };
  return { session, setup, add, update, mark, clear, context };
}

async function threeSteps() {
  const tools = planning();
  const result = await invokeTool(
    tools.setup,
    { objective: ' Ship ', initial_steps: [{ title: 'a' }, { title: ' b ' }, { title: 'c' }] },
    { session: tools.session },
  );
  expect(result.success).toBe(true);
  return tools;
}

describe('values the reference handlers build', () => {
  it('are frozen and parse to an equal value with their data type', async () => {
    const { setup, add, update, mark, clear, context } = await threeSteps();
    const built = [
      [SetupPlan, setup.handler(SetupPlan.parse({ objective: 'x', initial_steps: [] }), context)],
      [AddStep, add.handler(AddStep.parse({ steps: [{ title: ' d ', details: ' ' }] }), context)],
      [UpdateStep, update.handler(UpdateStep.parse({ step_id: ' S002 ', title: 'B' }), context)],
      [MarkStep, mark.handler(MarkStep.parse({ step_id: 'S001', status: 'done' }), context)],
      [ClearPlan, clear.handler(ClearPlan.parse({}), context)],
    ] as const;
    for (const [dataType, returned] of built) {
      const { value } = await returned;
      expect(Object.isFrozen(value)).toBe(true);
      // Same keys in the same order, same values: what the skipped parse would have returned.
      expect(isDeepStrictEqual(dataType.parse(value), value)).toBe(true);
      expect(JSON.stringify(dataType.parse(value))).toBe(JSON.stringify(value));
    }
  });

  it('are trusted as the result type of their own text mode', async () => {
    const session = new Session({ sessionId: 'trusted-unicode', clock: () => NOW });
    const tools = createPlanningTools(session, { text: 'unicode' });
    const { setup, add, update, mark } = shortToolNames(tools);
    const context = { session, now: NOW, toolName: 'test' };
    const set = await invokeTool(
      setup,
      { objective: '\u8a08\u753b', initial_steps: [{ title: 'a' }] },
      { session },
    );
    expect(set.success).toBe(true);
    const built = [
      [setup, setup.handler(setup.parameters.parse({ objective: '\u00e9' }), context)],
      [add, add.handler(add.parameters.parse({ steps: [{ title: '\u00e9' }] }), context)],
      [update, update.handler(update.parameters.parse({ step_id: 'S001', title: 'b' }), context)],
      [mark, mark.handler(mark.parameters.parse({ step_id: 'S001', status: 'done' }), context)],
    ] as const;
    for (const [tool, returned] of built) {
      const { value } = await returned;
      expect(isTrustedAs(value, tool.resultType as DataType), tool.name).toBe(true);
    }
    // The mark reducer skips the note's text check for a mark its handler built, in both modes.
    const { value: note } = await mark.handler(
      mark.parameters.parse({ step_id: 'S001', status: 'done', note: '\u2705' }),
      context,
    );
    expect(isTrustedMark(note)).toBe(true);
    const ascii = await threeSteps();
    const { value: asciiNote } = await ascii.mark.handler(
      MarkStep.parse({ step_id: 'S001', status: 'done', note: 'ok' }),
      ascii.context,
    );
    expect(isTrustedMark(asciiNote)).toBe(true);
    expect(isTrustedMark(MarkStep.parse({ step_id: 'S001', status: 'done', note: 'ok' }))).toBe(
      false,
    );
  });

  it('commit exactly what a dispatch of the same command commits', async () => {
    const viaTool = await threeSteps();
    const viaDispatch = await threeSteps();
    const args = { step_id: 'S002', status: 'in_progress', note: ' started ' } as const;
    expect((await invokeTool(viaTool.mark, args, { session: viaTool.session })).success).toBe(true);
    const parsed = MarkStep.parse({ ...args, note: 'started' });
    expect(viaDispatch.session.dispatch(MarkStep, parsed).ok).toBe(true);
    expect(selectLatest(viaTool.session, Plan)).toEqual(selectLatest(viaDispatch.session, Plan));
  });

  it('do not exempt a custom tool with the same result type from the schema', async () => {
    const { session } = await threeSteps();
    const forged = defineTool({
      name: 'forged_mark',
      description: 'Returns a MarkStep value no schema accepts.',
      parameters: MarkStep,
      resultType: MarkStep,
      handler: () => ({
        message: 'ok',
        value: { step_id: 'S001', status: 'bogus', note: null } as unknown as MarkStep,
      }),
    });
    const before = session.snapshot();
    const result = await invokeTool(forged, { step_id: 'S001', status: 'done' }, { session });
    expect(result.success).toBe(false);
    expect(result.message).toContain('does not match its schema at status');
    expect(session.snapshot()).toBe(before);
  });
});

describe('the mark reducer and the handler step search', () => {
  it('searches again when it reduces another plan than the handler searched', async () => {
    const { session, mark, context } = await threeSteps();
    const { value } = await mark.handler(
      MarkStep.parse({ step_id: 'S003', status: 'done' }),
      context,
    );
    const searched = selectLatest(session, Plan) as Plan;
    // Same ids, another order: the handler's index (2) now points at S002.
    const reordered: Plan = Object.freeze({
      ...searched,
      steps: Object.freeze([searched.steps[2], searched.steps[0], searched.steps[1]]),
    }) as Plan;
    const event = { dataType: 'plankit.MarkStep', value, sessionId: 'trusted', at: NOW };
    const [next] = markStepReducer([reordered], event);
    expect(next?.steps.map((step) => [step.step_id, step.status])).toEqual([
      ['S003', 'done'],
      ['S001', 'pending'],
      ['S002', 'pending'],
    ]);
  });

  it('reduces the same command twice without touching the first result', async () => {
    const { session, mark, context } = await threeSteps();
    const { value } = await mark.handler(
      MarkStep.parse({ step_id: 'S002', status: 'blocked', note: 'waiting' }),
      context,
    );
    const plan = selectLatest(session, Plan) as Plan;
    const event = { dataType: 'plankit.MarkStep', value, sessionId: 'trusted', at: NOW };
    const [first] = markStepReducer([plan], event);
    const [second] = markStepReducer([plan], event);
    expect(second).toEqual(first);
    expect(second?.steps).not.toBe(first?.steps);
    expect(Object.isFrozen(first?.steps)).toBe(true);
    expect(plan.steps[1]?.status).toBe('pending');
    expect(first?.steps[1]).toMatchObject({ status: 'blocked', notes: ['waiting'] });
  });
});
