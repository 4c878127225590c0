import { invokeTool, registerPlanningReducers, Session, selectAll, ToolCall } from '@plankit/core';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachStore } from '../persistence/stores/attach-store.ts';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool, type SessionPool } from './create-session-pool.ts';
import { ADD, MARK, ok, planOf, SETUP, serialPlan } from './testing/pool-helpers.ts';

const IDS = ['a', 'b', 'c'] as const;

type Command =
  | {
      readonly kind: 'call';
      readonly pool: number;
      readonly id: string;
      readonly op: 'setup' | 'add' | 'mark';
    }
  | { readonly kind: 'get' | 'evict'; readonly pool: number; readonly id: string };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      pool: fc.nat(1),
      id: fc.constantFrom(...IDS),
      op: fc.constantFrom('setup' as const, 'add' as const, 'mark' as const),
    }),
  },
  fc.record({
    kind: fc.constantFrom('get' as const, 'evict' as const),
    pool: fc.nat(1),
    id: fc.constantFrom(...IDS),
  }),
);

function call(op: 'setup' | 'add' | 'mark', tag: number) {
  switch (op) {
    case 'setup':
      return { tool: SETUP, args: { objective: `o${tag}`, initial_steps: [{ title: `t${tag}` }] } };
    case 'add':
      return { tool: ADD, args: { steps: [{ title: `t${tag}` }] } };
    case 'mark':
      return { tool: MARK, args: { step_id: 'S001', status: 'done', note: `n${tag}` } };
    default: {
      const never: never = op;
      throw new Error(`unknown op ${String(never)}`);
    }
  }
}

/** The tag of a logged call: the number in its objective, title or note. */
function tagOf(params: unknown): string {
  const text = JSON.stringify(params);
  const match = /"[otn](\d+)"/.exec(text);
  if (match === null) throw new Error(`no tag in ${text}`);
  return match[1] as string;
}

describe('createSessionPool property', () => {
  it('ends every conversation in the serial application of its acknowledged calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 25 }),
        fc.scheduler(),
        fc.integer({ min: 1, max: 2 }),
        async (commands, scheduler, max) => {
          const store = new MemoryStore();
          // Two pools on one store: two processes sharing the conversations.
          const pools: SessionPool[] = [
            createSessionPool({ store, max }),
            createSessionPool({ store, max }),
          ];
          const acknowledged = new Map<string, Set<string>>(IDS.map((id) => [id, new Set()]));
          const running: Promise<void>[] = [];
          for (const [tag, each] of commands.entries()) {
            const pool = pools[each.pool] as SessionPool;
            const execute = async () => {
              if (each.kind === 'call') {
                const { tool, args } = call(each.op, tag);
                const outcome = await pool.run(each.id, (session) =>
                  invokeTool(tool, args, { session }),
                );
                if (outcome.ok) {
                  if (outcome.value.success) acknowledged.get(each.id)?.add(String(tag));
                } else {
                  // The only refusal: another process kept winning.
                  expect(outcome.error.code).toBe('session_conflict');
                }
              } else if (each.kind === 'get') {
                ok(await pool.get(each.id));
              } else {
                await pool.evict(each.id);
              }
            };
            running.push(scheduler.schedule(Promise.resolve(), `${tag}`).then(execute));
          }
          await scheduler.waitAll();
          await Promise.all(running);
          for (const pool of pools) ok(await pool.close());
          for (const id of IDS) {
            const session = new Session({ sessionId: id });
            registerPlanningReducers(session);
            ok(await attachStore(session, store));
            const log = selectAll(session, ToolCall);
            // Every acknowledged call is stored exactly once; nothing else is.
            expect(log.map((entry) => tagOf(entry.params)).sort()).toEqual(
              [...(acknowledged.get(id) ?? [])].sort(),
            );
            expect(planOf(session)).toEqual(await serialPlan(log));
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});
