import { createPlanningTools, defineTool, Plan, Session, selectLatest } from '@plankit/core';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { callTool } from './call-tool.ts';
import { announceToolCalls } from './model-order.ts';

/** A tool that records the order in which its calls apply. */
function recorder(applied: string[]) {
  return defineTool({
    name: 'record',
    description: 'Records a label.',
    parameters: z.strictObject({ label: z.string() }),
    handler: ({ label }) => {
      applied.push(label);
      return { message: `Recorded ${label}.`, value: null };
    },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('model order', () => {
  it('applies a setup delayed by a hook before the mark the model emitted after it', async () => {
    const session = new Session();
    const tools = createPlanningTools(session);
    const turn = {};
    announceToolCalls(session, turn, ['call_setup', 'call_mark']);
    const setup = (async () => {
      await sleep(30); // an async hook before execute holds the first call
      return callTool(
        tools,
        {
          name: 'planning_setup_plan',
          arguments: { objective: 'o', initial_steps: [{ title: 'a' }] },
        },
        { session, order: { turn, id: 'call_setup' } },
      );
    })();
    const mark = callTool(
      tools,
      { name: 'planning_mark_step', arguments: { step_id: 'S001', status: 'done' } },
      { session, order: { turn, id: 'call_mark' } },
    );
    const [first, second] = await Promise.all([setup, mark]);
    expect(first.result.success).toBe(true);
    expect(second.result.message).toBe('Step S001 marked as done.');
    expect(selectLatest(session, Plan)?.status).toBe('completed');
  });

  it('applies 20 calls of one turn in emission order, whatever order they complete their hooks in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 5 }), { minLength: 20, maxLength: 20 }),
        async (delays) => {
          const session = new Session();
          const applied: string[] = [];
          const tools = [recorder(applied)];
          const turn = `response-${Math.random()}`;
          const ids = delays.map((_, index) => `call_${index}`);
          announceToolCalls(session, turn, ids);
          await Promise.all(
            ids.map(async (id, index) => {
              await sleep(delays[index] ?? 0);
              return callTool(
                tools,
                { name: 'record', arguments: { label: id } },
                { session, order: { turn, id } },
              );
            }),
          );
          expect(applied).toEqual(ids);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('orders calls under any scheduling of their starts (fast-check scheduler)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 8 }), async (s, count) => {
        const session = new Session();
        const applied: string[] = [];
        const tools = [recorder(applied)];
        const turn = {};
        const ids = Array.from({ length: count }, (_, index) => `c${index}`);
        announceToolCalls(session, turn, ids);
        const runs = ids.map((id) =>
          s
            .schedule(Promise.resolve(id))
            .then(() =>
              callTool(
                tools,
                { name: 'record', arguments: { label: id } },
                { session, order: { turn, id } },
              ),
            ),
        );
        await s.waitFor(Promise.all(runs));
        expect(applied).toEqual(ids);
      }),
      { numRuns: 100 },
    );
  });

  it('applies a retried call once and returns its first outcome', async () => {
    const session = new Session();
    const applied: string[] = [];
    const tools = [recorder(applied)];
    const turn = {};
    const order = { turn, id: 'call_1' };
    const first = await callTool(
      tools,
      { name: 'record', arguments: { label: 'x' } },
      { session, order },
    );
    const retried = await callTool(
      tools,
      { name: 'record', arguments: { label: 'x' } },
      { session, order },
    );
    expect(retried).toBe(first);
    expect(applied).toEqual(['x']);
  });

  it('gives up on an announced call that never starts, after the time-out', async () => {
    const session = new Session();
    const applied: string[] = [];
    const tools = [recorder(applied)];
    const turn = {};
    announceToolCalls(session, turn, ['skipped', 'a', 'b']);
    const a = callTool(
      tools,
      { name: 'record', arguments: { label: 'a' } },
      { session, order: { turn, id: 'a' }, orderTimeoutMs: 20 },
    );
    await a;
    // The skipped call was given up with the first time-out, so `b` does not wait again.
    const started = Date.now();
    await callTool(
      tools,
      { name: 'record', arguments: { label: 'b' } },
      { session, order: { turn, id: 'b' }, orderTimeoutMs: 60_000 },
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(applied).toEqual(['a', 'b']);
  });

  it('never makes calls of other turns or sessions wait', async () => {
    const session = new Session();
    const other = new Session();
    const applied: string[] = [];
    const tools = [recorder(applied)];
    announceToolCalls(session, 'turn-1', ['late', 'waiting']);
    const waiting = callTool(
      tools,
      { name: 'record', arguments: { label: 'waiting' } },
      { session, order: { turn: 'turn-1', id: 'waiting' } },
    );
    await callTool(
      tools,
      { name: 'record', arguments: { label: 'other-turn' } },
      { session, order: { turn: 'turn-2', id: 'x' } },
    );
    await callTool(
      tools,
      { name: 'record', arguments: { label: 'other-session' } },
      { session: other, order: { turn: 'turn-1', id: 'late' } },
    );
    expect(applied).toEqual(['other-turn', 'other-session']);
    await callTool(
      tools,
      { name: 'record', arguments: { label: 'late' } },
      { session, order: { turn: 'turn-1', id: 'late' } },
    );
    await waiting;
    expect(applied).toEqual(['other-turn', 'other-session', 'late', 'waiting']);
  });

  it('places a call that was never announced after the calls already known', async () => {
    const session = new Session();
    const applied: string[] = [];
    const tools = [recorder(applied)];
    const turn = {};
    announceToolCalls(session, turn, ['first']);
    const unannounced = callTool(
      tools,
      { name: 'record', arguments: { label: 'second' } },
      { session, order: { turn, id: 'second' } },
    );
    await sleep(5);
    await callTool(
      tools,
      { name: 'record', arguments: { label: 'first' } },
      { session, order: { turn, id: 'first' } },
    );
    await unannounced;
    expect(applied).toEqual(['first', 'second']);
  });
});
