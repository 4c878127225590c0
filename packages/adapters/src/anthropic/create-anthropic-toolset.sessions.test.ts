import { Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool } from '../sessions/create-session-pool.ts';
import { HOSTILE_IDS } from '../sessions/testing/hostile-ids.ts';
import {
  cleanup,
  LOAD_THROWS,
  ok,
  planOf,
  poolWhoseLoadThrows,
  spyStore,
  TOOLS,
} from '../sessions/testing/pool-helpers.ts';
import { createAnthropicToolset } from './create-anthropic-toolset.ts';

afterEach(cleanup);

/** The refusal code of a record, `undefined` for a success. */
const codeOf = (record: { result: { success: boolean; error?: { code: string } } } | undefined) =>
  record?.result.success === false ? record.result.error?.code : undefined;

// `tool_use` blocks as a Messages API response carries them.
const toolUse = (id: string, name: string, input: unknown) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});
const setup = (objective: string) => ({
  objective,
  initial_steps: [{ title: `${objective}: first` }, { title: `${objective}: second` }],
});

describe('Anthropic toolset: sessions per conversation', () => {
  it('keeps two conversations apart through one pool, concurrently', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store });
    const toolset = createAnthropicToolset(TOOLS);
    const session = pool.resolver((context: { key: string }) => context.key);
    const [a, b] = await Promise.all([
      toolset.runToolUses(
        [
          { type: 'text', text: 'Planning A.' },
          toolUse('toolu_1', 'planning_setup_plan', setup('Ship A')),
          toolUse('toolu_2', 'planning_mark_step', { step_id: 'S001', status: 'in_progress' }),
        ],
        { session, key: 'conversation-a' },
      ),
      toolset.runToolUses(
        [
          toolUse('toolu_3', 'planning_setup_plan', setup('Ship B')),
          toolUse('toolu_4', 'planning_add_step', { steps: [{ title: 'Ship B: third' }] }),
        ],
        { session, key: 'conversation-b' },
      ),
    ]);
    expect([...a, ...b].map((record) => record.block.is_error)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const planA = planOf(ok(await pool.get('conversation-a')));
    const planB = planOf(ok(await pool.get('conversation-b')));
    expect(planA?.objective).toBe('Ship A');
    expect(planA?.steps.map((step) => step.status)).toEqual(['in_progress', 'pending']);
    expect(planB?.objective).toBe('Ship B');
    expect(planB?.steps).toHaveLength(3);
    ok(await pool.close());
    const again = createSessionPool({ store });
    expect(planOf(ok(await again.get('conversation-a')))?.objective).toBe('Ship A');
    expect(planOf(ok(await again.get('conversation-b')))?.objective).toBe('Ship B');
    ok(await again.close());
  });

  it('refuses every tool_use of a run with a resolver but no key, as is_error blocks', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store });
    const toolset = createAnthropicToolset(TOOLS);
    const records = await toolset.runToolUses(
      [
        toolUse('toolu_1', 'planning_setup_plan', setup('Ship')),
        toolUse('toolu_2', 'planning_read_plan', {}),
      ],
      { session: pool.resolver((context: { key: string }) => context.key) },
    );
    expect(records.map((record) => codeOf(record))).toEqual([
      'session_unresolved',
      'session_unresolved',
    ]);
    expect(records.map((record) => record.block.is_error)).toEqual([true, true]);
    expect(records[0]?.block.content).toMatch(/^Tool validation failed: .*no conversation/);
    expect(calls).toEqual([]);
  });

  it('refuses hostile keys before the resolver or a store sees them', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store });
    const resolver = pool.resolver((context: { key: string }) => context.key);
    const seen: unknown[] = [];
    const toolset = createAnthropicToolset(TOOLS);
    for (const key of HOSTILE_IDS) {
      const [record] = await toolset.runToolUses([toolUse('toolu_1', 'planning_read_plan', {})], {
        session: (context) => {
          seen.push(context.key);
          return resolver(context);
        },
        key: key as string,
      });
      expect(codeOf(record)).toMatch(/^(conversation_id_invalid|session_unresolved)$/);
      expect(record?.block.is_error).toBe(true);
      expect(String(record?.block.content).length).toBeLessThan(2_000);
    }
    expect(seen).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('reports a store that throws while loading as a failed execution of that block, not as malformed arguments', async () => {
    const records = await createAnthropicToolset(TOOLS).runToolUses(
      [toolUse('toolu_1', 'planning_read_plan', {})],
      { session: poolWhoseLoadThrows(), key: 'chat-a' },
    );
    expect(codeOf(records[0])).toBe('tool_execution_failed');
    expect(records[0]?.block.is_error).toBe(true);
    expect(records[0]?.block.content).toBe(LOAD_THROWS.reported);
  });

  it('keeps the { session } form working', async () => {
    const toolset = createAnthropicToolset(TOOLS);
    const session = new Session({ sessionId: 'one' });
    const [record] = await toolset.runToolUses(
      [toolUse('toolu_1', 'planning_setup_plan', setup('Ship'))],
      { session },
    );
    expect(record?.result.success).toBe(true);
    expect(planOf(session)?.objective).toBe('Ship');
  });
});
