import { describe, expect, it } from 'vitest';
import { createOpenAIToolset } from '../openai/create-openai-toolset.ts';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { StoreError } from '../persistence/stores/store-error.ts';
import { createSessionPool } from '../sessions/create-session-pool.ts';
import { gate, storeWith, TOOLS } from '../sessions/testing/pool-helpers.ts';
import type { Durability } from './host-tool-options.ts';

const SETUP = {
  id: 'c1',
  type: 'function' as const,
  function: {
    name: 'planning_setup_plan',
    arguments: JSON.stringify({ objective: 'Ship', initial_steps: [{ title: 'Draft' }] }),
  },
};

/** A pool whose store holds every append at a gate, and a toolset of the given durability. */
function gatedHost(durability: Durability | undefined) {
  const held = gate();
  let appends = 0;
  const store = storeWith(new MemoryStore(), 'append', (append) => async (...args) => {
    appends++;
    await held.passed;
    return append(...args);
  });
  const pool = createSessionPool({ store });
  const session = pool.resolver((context: { key?: string | undefined }) => context.key);
  const toolset = createOpenAIToolset([...TOOLS], durability === undefined ? {} : { durability });
  const run = () => toolset.runChatToolCalls([SETUP], { session, key: 'chat' });
  return { held, run, pool, appends: () => appends };
}

describe('durability of a host tool result', () => {
  for (const durability of ['sync', undefined] as const) {
    it(`${durability ?? 'default (sync)'}: the result waits until the store has the change`, async () => {
      const { held, run, pool, appends } = gatedHost(durability);
      let answered = false;
      const running = run().then((records) => {
        answered = true;
        return records;
      });
      await until(() => appends() > 0);
      expect(answered).toBe(false);
      held.open();
      const [record] = await running;
      expect(record?.result.success).toBe(true);
      await pool.close();
    });
  }

  it("'async': the result comes back while the write is still pending", async () => {
    const { held, run, pool, appends } = gatedHost('async');
    const [record] = await run();
    expect(record?.result.success).toBe(true);
    expect(appends()).toBeGreaterThan(0);
    held.open();
    await pool.close();
  });

  it("'sync': a failed write is the refusal the model reads, not the tool's success", async () => {
    const store = storeWith(new MemoryStore(), 'append', () => async () => ({
      ok: false as const,
      error: new StoreError('io', 'disk full', { sessionId: 'chat' }),
    }));
    const pool = createSessionPool({ store });
    const session = pool.resolver((context: { key?: string | undefined }) => context.key);
    const [record] = await createOpenAIToolset([...TOOLS]).runChatToolCalls([SETUP], {
      session,
      key: 'chat',
    });
    expect(record?.result.success).toBe(false);
    expect(record?.message.content).toMatch(
      /^Tool validation failed: The store failed to save conversation chat \(io\): disk full/,
    );
    await pool.close();
  });

  it('refuses a durability that is not sync or async, naming the field', () => {
    expect(() => createOpenAIToolset([...TOOLS], { durability: 'exit' as never })).toThrow(
      "createOpenAIToolset: options.durability must be 'sync' or 'async'",
    );
  });
});

/** Waits (on events, not the clock) until `check` holds: each turn lets pending work run. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
