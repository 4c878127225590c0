import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import { batch, history, owners, planHistory } from '@plankit/core/plan-model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reducePlanHistory } from './plan-history-channel.ts';

const id = fc.integer({ min: 1, max: 4 }).map((n) => `S00${n}`);
const call = fc.record({
  tool: fc.constantFrom(2, 3, 6, 7),
  step: id,
  status: fc.constantFrom('pending', 'in_progress', 'done'),
  explanation: fc.option(fc.constantFrom('why not', 'asked by the lead'), { nil: undefined }),
});

describe('the planHistory channel (properties)', () => {
  it("appending each call's revision gives core's history (without plan copies), and survives JSON", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { maxLength: 25 }), async (calls) => {
        const session = new Session({ sessionId: 'channel' });
        const tools = createPlanningTools(session, {
          extensions: [batch(), owners({ agent: 'lead' }), history()],
        });
        let channel = reducePlanHistory([], undefined);
        const run = async (index: number, args: Record<string, unknown>) => {
          const newest = planHistory(session).at(-1)?.revision ?? 0;
          await invokeTool(tools[index] as never, args as never, { session });
          const made = planHistory(session).filter((revision) => revision.revision > newest);
          // One call, at most one revision: planningMiddleware sends the one after `newest`.
          expect(made.length).toBeLessThanOrEqual(1);
          channel = reducePlanHistory(channel, { append: made });
        };
        await run(0, {
          objective: 'o',
          initial_steps: [{ title: 'a' }, { title: 'b' }, { title: 'c' }],
          explanation: 'start',
        });
        for (const c of calls) {
          // Index 2 update, 3 mark, 6 batch, 7 claim.
          const args =
            c.tool === 2
              ? { step_id: c.step, details: c.status }
              : c.tool === 3
                ? { step_id: c.step, status: c.status }
                : c.tool === 6
                  ? { operations: [{ op: 'note', step_id: c.step, note: 'n' }] }
                  : { step_id: c.step };
          await run(c.tool, {
            ...args,
            ...(c.explanation === undefined ? {} : { explanation: c.explanation }),
          });
        }
        const core = planHistory(session).map(({ plan: _plan, ...rest }) => rest);
        expect(channel).toEqual(core);
        const stored = JSON.parse(JSON.stringify(channel));
        expect(stored).toEqual(channel);
        expect(reducePlanHistory(channel, stored)).toBe(channel);
        session.dispose();
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
