import { createPlanningTools, invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import { batch, dependencies, history, owners, planHistory } from '@plankit/core/plan-model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachStore } from './attach-store.ts';
import { MemoryStore } from './memory-store.ts';

const AGENTS = ['lead', 'agent-a', 'agent-b'] as const;

async function open(store: MemoryStore, snapshotEvery: number) {
  const session = new Session({ sessionId: 'replayed' });
  const tools = AGENTS.map((agent) =>
    createPlanningTools(session, {
      extensions: [dependencies(), batch(), owners({ agent }), history()],
    }),
  );
  // No dataTypes: attachStore replays the plan model's commands by default.
  const attached = await attachStore(session, store, { snapshotEvery });
  if (!attached.ok) throw attached.error;
  return { session, tools, attachment: attached.value };
}

const id = fc.integer({ min: 1, max: 5 }).map((n) => `S00${n}`);
const call = fc.record({
  who: fc.integer({ min: 0, max: 2 }),
  tool: fc.constantFrom(3, 6, 7, 8),
  step: id,
  status: fc.constantFrom('pending', 'in_progress', 'done'),
  explanation: fc.option(fc.constantFrom('why not', 'asked by the lead'), { nil: undefined }),
});

describe('plan history through a store (properties)', () => {
  it('a reload from the store (log, or snapshot and log) gives the same plan and the same history', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(call, { maxLength: 20 }),
        fc.constantFrom(1, 3, Number.POSITIVE_INFINITY),
        async (calls, snapshotEvery) => {
          const store = new MemoryStore();
          const first = await open(store, snapshotEvery);
          const [lead] = first.tools;
          await invokeTool(
            lead?.[0] as NonNullable<typeof lead>[0],
            {
              objective: 'o',
              initial_steps: [{ title: 'a' }, { title: 'b', depends_on: ['S001'] }, { title: 'c' }],
              explanation: 'start',
            },
            { session: first.session },
          );
          for (const c of calls) {
            const tools = first.tools[c.who] as NonNullable<typeof lead>;
            const args =
              c.tool === 3
                ? { step_id: c.step, status: c.status }
                : c.tool === 6
                  ? { operations: [{ op: 'note', step_id: c.step, note: 'n' }] }
                  : { step_id: c.step };
            // Index 6 is the batch tool, 7 claim, 8 release.
            await invokeTool(
              tools[c.tool] as never,
              {
                ...args,
                ...(c.explanation === undefined ? {} : { explanation: c.explanation }),
              } as never,
              { session: first.session },
            );
          }
          expect((await first.attachment.detach()).ok).toBe(true);
          const second = await open(store, snapshotEvery);
          expect(selectLatest(second.session, Plan)).toEqual(selectLatest(first.session, Plan));
          expect(planHistory(second.session)).toEqual(planHistory(first.session));
          await second.attachment.detach();
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
