import { createPlanningTools, Session } from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore } from '../persistence/stores/file-store.ts';
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
  tempDirectory,
} from '../sessions/testing/pool-helpers.ts';
import { UNICODE_TITLES } from '../testing/unicode-plan-case.ts';
import { createOpenAIToolset } from './create-openai-toolset.ts';

afterEach(cleanup);

/** The refusal code of a record, `undefined` for a success. */
const codeOf = (record: { result: { success: boolean; error?: { code: string } } } | undefined) =>
  record?.result.success === false ? record.result.error?.code : undefined;

const chatCall = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});
const responsesCall = (callId: string, name: string, args: unknown) => ({
  type: 'function_call',
  id: `fc_${callId}`,
  call_id: callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});
const setup = (objective: string) => ({
  objective,
  initial_steps: [{ title: `${objective}: first` }, { title: `${objective}: second` }],
});

describe('OpenAI toolset: sessions per conversation', () => {
  it('keeps plans in any language per conversation through a FileStore pool, across evictions and a fresh pool', async () => {
    const store = new FileStore({ directory: await tempDirectory() });
    // One live session at a time: each conversation's turn evicts the other's.
    const pool = createSessionPool({ store, max: 1 });
    const toolset = createOpenAIToolset(createPlanningTools(new Session(), { text: 'unicode' }));
    const session = pool.resolver((context: { key: string }) => context.key);
    const plans: Record<string, { objective: string; titles: readonly string[] }> = {
      'チャット-1': { objective: '翻訳を確認する', titles: UNICODE_TITLES },
      'chat-2': { objective: 'Ship v2 🚀', titles: ['Café menu', 'Cafe\u0301 au lait'] },
    };
    for (const [key, plan] of Object.entries(plans)) {
      const [record] = await toolset.runChatToolCalls(
        [
          chatCall('c1', 'planning_setup_plan', {
            objective: plan.objective,
            initial_steps: plan.titles.map((title) => ({ title })),
          }),
        ],
        { session, key },
      );
      expect(record?.result.success, String(record?.message.content)).toBe(true);
    }
    const expected = (key: string) => ({
      objective: plans[key]?.objective,
      titles: plans[key]?.titles.map((title) => title.normalize('NFC')),
    });
    const shown = (found: Session) => {
      const plan = planOf(found);
      return { objective: plan?.objective, titles: plan?.steps.map((step) => step.title) };
    };
    for (const key of Object.keys(plans))
      expect(shown(ok(await pool.get(key)))).toEqual(expected(key));
    ok(await pool.close());
    const again = createSessionPool({ store });
    for (const key of Object.keys(plans))
      expect(shown(ok(await again.get(key)))).toEqual(expected(key));
    ok(await again.close());
    await store.close();
  });

  it('keeps two conversations apart through one pool, concurrently (Chat and Responses)', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store });
    const toolset = createOpenAIToolset(TOOLS);
    const session = pool.resolver((context: { key: string }) => context.key);
    const [chat, responses] = await Promise.all([
      toolset.runChatToolCalls(
        [
          chatCall('c1', 'planning_setup_plan', setup('Ship A')),
          chatCall('c2', 'planning_mark_step', { step_id: 'S001', status: 'in_progress' }),
        ],
        { session, key: 'chat-a' },
      ),
      toolset.runResponsesFunctionCalls(
        [
          responsesCall('r1', 'planning_setup_plan', setup('Ship B')),
          responsesCall('r2', 'planning_add_step', { steps: [{ title: 'Ship B: third' }] }),
        ],
        { session, key: 'chat-b' },
      ),
    ]);
    expect([...chat, ...responses].map((record) => record.result.success)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    const a = planOf(ok(await pool.get('chat-a')));
    const b = planOf(ok(await pool.get('chat-b')));
    expect(a?.objective).toBe('Ship A');
    expect(a?.steps.map((step) => step.status)).toEqual(['in_progress', 'pending']);
    expect(b?.objective).toBe('Ship B');
    expect(b?.steps).toHaveLength(3);
    // What the pool stored reads back in a fresh pool: each conversation has its own plan.
    ok(await pool.close());
    const again = createSessionPool({ store });
    expect(planOf(ok(await again.get('chat-a')))?.objective).toBe('Ship A');
    expect(planOf(ok(await again.get('chat-b')))?.steps).toHaveLength(3);
    ok(await again.close());
  });

  it('refuses every call of a run with a resolver but no key, and never throws', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store });
    const toolset = createOpenAIToolset(TOOLS);
    const session = pool.resolver((context: { key: string }) => context.key);
    const records = await toolset.runChatToolCalls(
      [
        chatCall('c1', 'planning_setup_plan', setup('Ship')),
        chatCall('c2', 'planning_read_plan', {}),
      ],
      { session },
    );
    expect(records.map((record) => codeOf(record))).toEqual([
      'session_unresolved',
      'session_unresolved',
    ]);
    expect(records[0]?.message.content).toMatch(/^Tool validation failed: .*no conversation/);
    const responses = await toolset.runResponsesFunctionCalls(
      [responsesCall('r1', 'planning_read_plan', {})],
      { session, key: '' },
    );
    expect(codeOf(responses[0])).toBe('session_unresolved');
    expect(responses[0]?.message.output).toMatch(/^Tool validation failed:/);
    expect(calls).toEqual([]);
    expect(pool.size).toBe(0);
  });

  it('refuses hostile keys before the resolver or a store sees them', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store });
    const seen: unknown[] = [];
    const resolver = pool.resolver((context: { key: string }) => context.key);
    const toolset = createOpenAIToolset(TOOLS);
    for (const key of HOSTILE_IDS) {
      const records = await toolset.runChatToolCalls([chatCall('c1', 'planning_read_plan', {})], {
        session: (context) => {
          seen.push(context.key);
          return resolver(context);
        },
        key: key as string,
      });
      expect(codeOf(records[0])).toMatch(/^(conversation_id_invalid|session_unresolved)$/);
      expect(records[0]?.message.content.length).toBeLessThan(2_000);
      expect(records[0]?.message.content).not.toContain('\u0000');
    }
    expect(seen).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('turns a throwing resolver into a refusal record for that call only', async () => {
    const toolset = createOpenAIToolset(TOOLS);
    const fixed = new Session({ sessionId: 'fixed' });
    let first = true;
    const records = await toolset.runChatToolCalls(
      [
        chatCall('c1', 'planning_setup_plan', setup('Ship')),
        chatCall('c2', 'planning_setup_plan', setup('Ship')),
      ],
      {
        session: () => {
          if (first) {
            first = false;
            throw new Error('database down');
          }
          return fixed;
        },
        key: 'chat-a',
      },
    );
    expect(codeOf(records[0])).toBe('session_unresolved');
    expect(records[0]?.message.content).toContain('database down');
    expect(records[1]?.result.success).toBe(true);
    expect(planOf(fixed)?.objective).toBe('Ship');
  });

  it('reports a store that throws while loading as a failed execution of that call, not as malformed arguments', async () => {
    const records = await createOpenAIToolset(TOOLS).runChatToolCalls(
      [chatCall('c1', 'planning_read_plan', {})],
      { session: poolWhoseLoadThrows(), key: 'chat-a' },
    );
    expect(codeOf(records[0])).toBe('tool_execution_failed');
    expect(records[0]?.message.content).toBe(LOAD_THROWS.reported);
  });

  it('keeps the { session } form: a Session serves every call, the key is not needed', async () => {
    const toolset = createOpenAIToolset(TOOLS);
    const session = new Session({ sessionId: 'one' });
    const records = await toolset.runResponsesFunctionCalls(
      [responsesCall('r1', 'planning_setup_plan', setup('Ship'))],
      { session },
    );
    expect(records[0]?.result.success).toBe(true);
    expect(planOf(session)?.objective).toBe('Ship');
  });
});
