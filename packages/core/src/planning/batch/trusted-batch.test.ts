import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../define-tool.ts';
import { invokeTool } from '../../invoke-tool.ts';
import { batch, dependencies } from '../../plan-model.ts';
import { selectLatest } from '../../select-latest.ts';
import { Session } from '../../session.ts';
import { createPlanningTools } from '../create-planning-tools.ts';
import { Plan } from '../plan.ts';
import type { PlanningExtension } from '../planning-extension.ts';
import { MAX_STEP_NUMBER } from '../step-id.ts';
import type { PlanBatchTool } from './batch.ts';
import { PlanBatch, planBatchReducer } from './plan-batch.ts';

// The batch handler's value skips the session's second parse and storable walk, and its
// reducer takes the plan the handler reached instead of applying the operations again. These
// tests pin what makes that safe: the value is what the schema would return, and any other
// way a batch arrives (by hand, from another tool, on another plan) is checked in full.

const NOW = 1_700_000_000_000;

function planning(extensions: readonly PlanningExtension[] = []) {
  const session = new Session({ sessionId: 'trusted-batch', clock: () => NOW });
  const tools = createPlanningTools(session, { extensions: [...extensions, batch()] });
  const batchTool = tools.find((tool) => tool.name === 'planning_apply_batch') as PlanBatchTool;
  const context = { session, now: NOW, toolName: 'planning_apply_batch' };
  const apply = (operations: unknown[]) => invokeTool(batchTool, { operations }, { session });
  // The handler alone, as invokeTool runs it: on parsed params, with nothing committed.
  const build = async (operations: unknown[]) => {
    const returned = await batchTool.handler(batchTool.parameters.parse({ operations }), context);
    return returned.value;
  };
  return { session, tools, batchTool, apply, build, plan: () => selectLatest(session, Plan) };
}

async function threeSteps(extensions: readonly PlanningExtension[] = []) {
  const tools = planning(extensions);
  const result = await tools.apply([
    { op: 'setup', objective: 'Ship' },
    { op: 'add', title: 'a' },
    { op: 'add', title: 'b' },
    { op: 'add', title: 'c' },
  ]);
  expect(result.success).toBe(true);
  return tools;
}

function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe('the value the batch handler builds', () => {
  it('is deeply frozen and parses to an equal value, with and without dependencies', async () => {
    for (const extensions of [[], [dependencies()]]) {
      const { build } = await threeSteps(extensions);
      const withDependencies =
        extensions.length === 0
          ? []
          : [
              { op: 'add', title: 'f', depends_on: [' S001 ', 'S002'] },
              { op: 'update', step_id: 'S003', depends_on: ['S006'] },
            ];
      const value = await build([
        { op: 'mark', step_id: ' S001 ', status: 'done', note: ' ok ' },
        { op: 'note', step_id: 'S002', note: 'looked' },
        { op: 'update', step_id: 'S003', title: ' C ', details: null },
        { op: 'add', title: ' d ', details: ' ' },
        { op: 'add', title: 'e', details: 'more' },
        { op: 'mark', step_id: 'S004', status: 'in_progress', note: null },
        ...withDependencies,
        { op: 'setup', objective: ' Again ' },
      ]);
      expect(deeplyFrozen(value)).toBe(true);
      // Same keys in the same order, same values: what the skipped parse would have returned.
      expect(isDeepStrictEqual(PlanBatch.parse(value), value)).toBe(true);
      expect(JSON.stringify(PlanBatch.parse(value))).toBe(JSON.stringify(value));
    }
  });

  it('commits exactly what a dispatch of the same batch commits', async () => {
    const operations = [
      { op: 'mark', step_id: 'S001', status: 'done', note: 'ok' },
      { op: 'add', title: 'd' },
      { op: 'add', title: 'e' },
      { op: 'update', step_id: 'S002', details: 'more' },
      { op: 'mark', step_id: 'S004', status: 'in_progress' },
    ];
    const viaTool = await threeSteps();
    const viaDispatch = await threeSteps();
    const value = await viaDispatch.build(operations);
    expect((await viaTool.apply(operations)).success).toBe(true);
    expect(viaDispatch.session.dispatch(PlanBatch, PlanBatch.parse(value)).ok).toBe(true);
    expect(viaTool.plan()).toEqual(viaDispatch.plan());
    expect(viaTool.plan()?.steps.map((step) => step.step_id)).toEqual([
      'S001',
      'S002',
      'S003',
      'S004',
      'S005',
    ]);
  });
});

describe('a batch that is not the handler result of the plan it is reduced on', () => {
  it('is applied in full when dispatched by hand, the very value included', async () => {
    const { session, tools, build, plan } = await threeSteps();
    const value = await build([
      { op: 'add', title: 'd' },
      { op: 'mark', step_id: 'S001', status: 'done' },
    ]);
    // The plan is abandoned since the handler ran: the batch no longer applies.
    const clear = tools.find((tool) => tool.name === 'planning_clear_plan');
    expect((await invokeTool(clear as PlanBatchTool, {}, { session })).success).toBe(true);
    const before = session.snapshot();
    const result = session.dispatch(PlanBatch, value);
    expect(result.ok).toBe(false);
    expect(result.ok || result.error.message).toContain('Plan must be active to add steps to');
    expect(session.snapshot()).toBe(before);
    expect(plan()?.status).toBe('abandoned');
  });

  it('is held to the text rules when dispatched by hand', async () => {
    const { session, plan } = await threeSteps();
    const before = plan();
    for (const operation of [
      { op: 'note', step_id: 'S001', note: ' padded ' },
      { op: 'mark', step_id: 'S001', status: 'done', note: 'nul \u0000' },
      // Decomposed: no tool of either text mode stores text that is not NFC.
      { op: 'add', steps: [{ title: 'cafe\u0301', details: null }] },
      { op: 'setup', objective: '' },
    ]) {
      const result = session.dispatch(PlanBatch, { operations: [operation] } as PlanBatch);
      expect(result.ok).toBe(false);
    }
    expect(plan()).toBe(before);
  });

  it('is checked in full when a custom tool returns one, by the schema and by the reducer', async () => {
    const { session, plan } = await threeSteps();
    const before = session.snapshot();
    const forge = (value: unknown) =>
      defineTool({
        name: 'forged_batch',
        description: 'Returns a batch the batch tool did not build.',
        parameters: PlanBatch,
        resultType: PlanBatch,
        handler: () => ({ message: 'ok', value: value as PlanBatch }),
      });
    const args = { operations: [] };
    const badStatus = forge({
      operations: [{ op: 'mark', step_id: 'S001', status: 'bogus', note: null }],
    });
    const refusedBySchema = await invokeTool(badStatus, args, { session });
    expect(refusedBySchema.message).toContain('does not match its schema');
    const untrimmed = forge({ operations: [{ op: 'note', step_id: 'S001', note: ' x ' }] });
    const refusedByReducer = await invokeTool(untrimmed, args, { session });
    expect(refusedByReducer.success).toBe(false);
    expect(refusedByReducer.message).toContain('Note must not start or end with whitespace');
    expect(session.snapshot()).toBe(before);
    expect(plan()?.steps.every((step) => step.notes.length === 0)).toBe(true);
  });

  it('is applied to the plan it meets, rules and all, when the plan changed since the handler', async () => {
    const { session, tools, build, plan } = await threeSteps();
    const value = await build([{ op: 'mark', step_id: 'S003', status: 'done' }]);
    // Another call moves the plan on before the batch's value reaches the session.
    const mark = tools.find((tool) => tool.name === 'planning_mark_step') as PlanBatchTool;
    const args = { step_id: 'S001', status: 'done' };
    expect((await invokeTool(mark, args as never, { session })).success).toBe(true);
    // A tool handing on the batch tool's own (trusted) value: parsed or not, it is applied to
    // the plan as it is now, not replaced by the plan the handler reached.
    const relay = defineTool({
      name: 'relay_batch',
      description: 'Returns a value the batch tool built earlier.',
      parameters: PlanBatch,
      resultType: PlanBatch,
      handler: () => ({ message: 'ok', value }),
    });
    expect((await invokeTool(relay, { operations: [] }, { session })).success).toBe(true);
    expect(plan()?.steps.map((step) => step.status)).toEqual(['done', 'pending', 'done']);
    // Abandoned, the plan takes no mark: the relayed batch is refused and changes nothing.
    const again = await build([{ op: 'mark', step_id: 'S002', status: 'done' }]);
    const clear = tools.find((tool) => tool.name === 'planning_clear_plan');
    expect((await invokeTool(clear as PlanBatchTool, {}, { session })).success).toBe(true);
    const before = session.snapshot();
    const refused = await invokeTool(
      defineTool({ ...relay, handler: () => ({ message: 'ok', value: again }) }),
      { operations: [] },
      { session },
    );
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('Cannot mark steps on an abandoned plan');
    expect(session.snapshot()).toBe(before);
  });

  it('is reduced by the reducer alone on another plan, or twice, as its operations say', async () => {
    const { build, plan } = await threeSteps();
    const searched = plan() as Plan;
    const value = await build([
      { op: 'mark', step_id: 'S002', status: 'blocked', note: 'waiting' },
      { op: 'add', title: 'd' },
    ]);
    const other: Plan = Object.freeze({
      ...searched,
      steps: Object.freeze([searched.steps[1], searched.steps[0]]),
    }) as Plan;
    const event = { dataType: 'plankit.PlanBatch', value, sessionId: 'trusted-batch', at: NOW };
    const [onOther] = planBatchReducer([other], event);
    expect(onOther?.steps.map((step) => [step.step_id, step.status])).toEqual([
      ['S002', 'blocked'],
      ['S001', 'pending'],
      ['S003', 'pending'],
    ]);
    const [first] = planBatchReducer([searched], event);
    const [second] = planBatchReducer([searched], event);
    expect(first?.steps.map((step) => [step.step_id, step.status, step.notes])).toEqual([
      ['S001', 'pending', []],
      ['S002', 'blocked', ['waiting']],
      ['S003', 'pending', []],
      ['S004', 'pending', []],
    ]);
    expect(second).toEqual(first);
    expect(plan()).toBe(searched);
  });
});

describe('additions in a row', () => {
  it('are refused one by one, each naming its operation, when not all of them fit', async () => {
    const { session, apply, plan } = planning();
    const last = `S${MAX_STEP_NUMBER - 1}`;
    const steps = [{ step_id: last, title: 't', details: null, status: 'pending', notes: [] }];
    expect(session.dispatch(Plan, { objective: 'o', status: 'active', steps } as Plan).ok).toBe(
      true,
    );
    const before = plan();
    const result = await apply([
      { op: 'add', title: 'fits' },
      { op: 'add', title: 'one too many' },
      { op: 'add', title: 'two too many' },
    ]);
    expect(result.message).toBe(
      'Tool validation failed: Batch refused; nothing was changed. 2 of 3 operations failed: ' +
        `operations[1] (add): Cannot add a step: step ids would pass S${MAX_STEP_NUMBER}. Set up a new plan to start again at S001; ` +
        `operations[2] (add): Cannot add a step: step ids would pass S${MAX_STEP_NUMBER}. Set up a new plan to start again at S001.`,
    );
    expect(plan()).toBe(before);
    const fits = await apply([{ op: 'add', title: 'fits' }]);
    expect(fits.message).toBe(`Applied 1 operation: added S${MAX_STEP_NUMBER}.`);
  });

  it('keep their order among refusals and are added as one entry when they apply', async () => {
    const { apply, plan } = planning();
    const early = await apply([
      { op: 'add', title: 'a' },
      { op: 'add', title: 'b' },
      { op: 'mark', step_id: 'S001' },
      { op: 'add', title: 'c' },
      { op: 'setup', objective: 'o' },
    ]);
    expect(early.message).toBe(
      'Tool validation failed: Batch refused; nothing was changed. 4 of 5 operations failed: ' +
        'operations[0] (add): No plan is currently initialised; ' +
        'operations[1] (add): No plan is currently initialised; ' +
        'operations[2] (mark S001): mark needs status; ' +
        'operations[3] (add): No plan is currently initialised.',
    );
    expect(plan()).toBeUndefined();
    const result = await apply([
      { op: 'setup', objective: 'o' },
      { op: 'add', title: 'a' },
      { op: 'add', title: 'b' },
      { op: 'mark', step_id: 'S001', status: 'in_progress' },
      { op: 'add', title: 'c' },
      { op: 'add', title: 'd' },
      { op: 'add', title: 'e' },
      { op: 'add', title: 'f' },
    ]);
    expect(result.message).toBe(
      'Applied 8 operations: new plan set up; added S001, S002; S001 marked as in_progress; added S003 … S006, 4 steps.',
    );
    expect(plan()?.steps.map((step) => [step.step_id, step.title, step.status])).toEqual([
      ['S001', 'a', 'in_progress'],
      ['S002', 'b', 'pending'],
      ['S003', 'c', 'pending'],
      ['S004', 'd', 'pending'],
      ['S005', 'e', 'pending'],
      ['S006', 'f', 'pending'],
    ]);
  });
});
