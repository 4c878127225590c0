import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { invokeTool, type Plan, Session } from '@plankit/core';
import { parsePlanView, planView } from '@plankit/core/plan-view';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import { createSessionPool } from '../sessions/create-session-pool.ts';
import type { SessionSource } from '../sessions/resolve-session.ts';
import { HOSTILE_IDS } from '../sessions/testing/hostile-ids.ts';
import { MARK, ok, planOf, spyStore, TOOLS } from '../sessions/testing/pool-helpers.ts';
import { MCP_PLAN_ID_META_KEY, type McpContext } from './mcp-context.ts';
import * as v1 from './register-mcp-plan-resource.ts';
import * as v1Tools from './register-mcp-tools.ts';
import * as v2 from './v2/register-mcp-plan-resource.ts';
import * as v2Tools from './v2/register-mcp-tools.ts';

type CallResult = { content: { type: string; text: string }[]; isError?: boolean };

/** One client on its own server connection, naming its conversation the way its major does. */
interface Connection {
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  readPlan(): Promise<Plan | null>;
  subscribe(): Promise<unknown>;
  /** Reads the plan view resource's JSON. */
  readView(): Promise<unknown>;
  subscribeView(): Promise<unknown>;
  /** URIs of the `notifications/resources/updated` this client received. */
  readonly updates: string[];
}

interface Major {
  readonly name: 'v1' | 'v2';
  /** The resolver this major's hosts use: v1 by transport session id, v2 by `_meta` plan id. */
  readonly byIdentity: (context: McpContext) => string | undefined;
  /** Connects a client whose identity is `id` (`undefined`: none) to a fresh server. */
  connect(source: SessionSource<McpContext>, id: unknown): Promise<Connection>;
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const URI = 'plankit://plan';
const VIEW_URI = 'plankit://plan/view';

// v1: one McpServer per connection (the SDK's rule), each transport with its own session id,
// as Streamable HTTP gives it; the id reaches handlers as `extra.sessionId`.
const V1: Major = {
  name: 'v1',
  byIdentity: (context) => context.sessionId,
  async connect(source, id) {
    const server = new McpServerV1({ name: 'plankit-test', version: '1.0.0' });
    v1Tools.registerMcpTools(server, TOOLS, { session: source });
    v1.registerMcpPlanResource(server, { session: source });
    const [serverSide, clientSide] = InMemoryV1.createLinkedPair();
    if (id !== undefined) serverSide.sessionId = id as string;
    await server.connect(serverSide);
    const client = new ClientV1({ name: 'test-client', version: '1.0.0' });
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    await client.connect(clientSide);
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    return {
      call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult,
      readPlan: async () => {
        const read = await client.readResource({ uri: URI });
        return JSON.parse((read.contents[0] as { text: string }).text);
      },
      subscribe: () => client.subscribeResource({ uri: URI }),
      readView: async () => {
        const read = await client.readResource({ uri: VIEW_URI });
        return JSON.parse((read.contents[0] as { text: string }).text);
      },
      subscribeView: () => client.subscribeResource({ uri: VIEW_URI }),
      updates,
    };
  },
};

// v2: the 2026 protocol has no session id; the client names its plan in each request's _meta.
const V2: Major = {
  name: 'v2',
  byIdentity: (context) => context.planId,
  async connect(source, id) {
    const server = new McpServerV2({ name: 'plankit-test', version: '1.0.0' });
    v2Tools.registerMcpTools(server, TOOLS, { session: source });
    v2.registerMcpPlanResource(server, { session: source });
    const [serverSide, clientSide] = InMemoryV2.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: 'test-client', version: '1.0.0' });
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updates.push(notification.params.uri);
    });
    await client.connect(clientSide);
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    const _meta = id === undefined ? undefined : { [MCP_PLAN_ID_META_KEY]: id };
    const withMeta = <P extends object>(params: P) =>
      _meta === undefined ? params : { ...params, _meta };
    return {
      call: async (name, args) =>
        (await client.callTool(withMeta({ name, arguments: args }) as never)) as CallResult,
      readPlan: async () => {
        const read = await client.readResource(withMeta({ uri: URI }) as never);
        return JSON.parse((read.contents[0] as { text: string }).text);
      },
      subscribe: () => client.subscribeResource(withMeta({ uri: URI }) as never),
      readView: async () => {
        const read = await client.readResource(withMeta({ uri: VIEW_URI }) as never);
        return JSON.parse((read.contents[0] as { text: string }).text);
      },
      subscribeView: () => client.subscribeResource(withMeta({ uri: VIEW_URI }) as never),
      updates,
    };
  },
};

const setup = (objective: string) => ({
  objective,
  initial_steps: [{ title: `${objective}: first` }, { title: `${objective}: second` }],
});
// Lets the notifications already written to the in-memory transport reach the client.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe.each([V1, V2])('MCP $name: one plan per client through a session pool', (major) => {
  it('keeps two clients on one server apart, concurrently: tools, resource and notifications', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store });
    const source = pool.resolver(major.byIdentity);
    const [a, b] = await Promise.all([
      major.connect(source, 'client-a'),
      major.connect(source, 'client-b'),
    ]);
    await Promise.all([a.subscribe(), b.subscribe()]);
    const run = async (client: Connection, objective: string, extra: number) => {
      const results = [await client.call('planning_setup_plan', setup(objective))];
      for (let index = 0; index < extra; index++)
        results.push(
          await client.call('planning_add_step', { steps: [{ title: `${objective} ${index}` }] }),
        );
      results.push(await client.call('planning_mark_step', { step_id: 'S001', status: 'done' }));
      return results;
    };
    const [resultsA, resultsB] = await Promise.all([run(a, 'Ship A', 3), run(b, 'Ship B', 1)]);
    expect([...resultsA, ...resultsB].every((result) => result.isError !== true)).toBe(true);
    await settle();
    const [planA, planB] = await Promise.all([a.readPlan(), b.readPlan()]);
    expect(planA?.objective).toBe('Ship A');
    expect(planA?.steps).toHaveLength(5);
    expect(planB?.objective).toBe('Ship B');
    expect(planB?.steps).toHaveLength(3);
    expect(planB?.steps[0]?.status).toBe('done');
    // Each client hears about its own plan's changes only: one per call it made.
    expect(a.updates).toEqual(Array(resultsA.length).fill(URI));
    expect(b.updates).toEqual(Array(resultsB.length).fill(URI));
    // The pool holds them as two conversations, and the store keeps both.
    expect(planOf(ok(await pool.get('client-a')))).toEqual(planA);
    ok(await pool.close());
    const again = createSessionPool({ store });
    expect(planOf(ok(await again.get('client-b')))).toEqual(planB);
    ok(await again.close());
  });

  it('serves each client the plan view of its own conversation, and notifies its view subscribers', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const source = pool.resolver(major.byIdentity);
    const [a, b] = await Promise.all([
      major.connect(source, 'client-a'),
      major.connect(source, 'client-b'),
    ]);
    await Promise.all([a.subscribeView(), b.subscribe()]);
    await Promise.all([
      a.call('planning_setup_plan', setup('Ship A')),
      b.call('planning_setup_plan', setup('Ship B')),
    ]);
    await a.call('planning_mark_step', { step_id: 'S001', status: 'done' });
    await settle();
    const [viewA, viewB] = await Promise.all([a.readView(), b.readView()]);
    const readA = parsePlanView(viewA);
    expect(readA.ok && [readA.value.objective, readA.value.counts.done]).toEqual(['Ship A', 1]);
    const readB = parsePlanView(viewB);
    expect(readB.ok && [readB.value.objective, readB.value.counts.done]).toEqual(['Ship B', 0]);
    expect(readA).toEqual({ ok: true, value: planView(ok(await pool.get('client-a'))) });
    // A hears its view's two changes; B, subscribed to the plan only, its one plan change.
    expect(a.updates).toEqual([VIEW_URI, VIEW_URI]);
    expect(b.updates).toEqual([URI]);
    ok(await pool.close());
  });

  it('keeps subscriptions across evictions and reloads, and hears changes made through pool.run', async () => {
    const pool = createSessionPool({ store: new MemoryStore(), max: 1 });
    const source = pool.resolver(major.byIdentity);
    const [a, b] = await Promise.all([
      major.connect(source, 'shared'),
      major.connect(source, 'shared'),
    ]);
    await Promise.all([a.subscribe(), b.subscribe()]);
    expect((await a.call('planning_setup_plan', setup('Ship'))).isError).not.toBe(true);
    await settle();
    expect([a.updates.length, b.updates.length]).toEqual([1, 1]);
    // Another conversation takes the pool's only slot: "shared" is evicted, then reloaded.
    ok(await pool.run('other', () => undefined));
    await settle();
    expect(pool.has('shared')).toBe(false);
    const marked = await b.call('planning_mark_step', { step_id: 'S001', status: 'done' });
    expect(marked.isError).not.toBe(true);
    await settle();
    expect([a.updates.length, b.updates.length]).toEqual([2, 2]);
    // The app changes the plan itself (an approval screen), on a copy loaded by the pool.
    ok(await pool.evict('shared'));
    const approved = await pool.run('shared', (session) =>
      invokeTool(MARK, { step_id: 'S002', status: 'done' }, { session }),
    );
    expect(ok(approved).success).toBe(true);
    await settle();
    expect([a.updates.length, b.updates.length]).toEqual([3, 3]);
    expect((await a.readPlan())?.status).toBe('completed');
    ok(await pool.close());
  });

  it('sends nothing for a read on a conversation evicted and loaded again: a reload is not a change', async () => {
    const pool = createSessionPool({ store: new MemoryStore(), max: 1 });
    const client = await major.connect(pool.resolver(major.byIdentity), 'shared');
    await client.subscribe();
    await client.subscribeView();
    expect((await client.call('planning_setup_plan', setup('Ship'))).isError).not.toBe(true);
    await settle();
    expect(client.updates).toEqual([URI, VIEW_URI]);
    ok(await pool.run('other', () => undefined));
    expect(pool.has('shared')).toBe(false);
    // The read loads a new copy, whose plan is equal to the one the client saw.
    expect((await client.call('planning_read_plan', {})).isError).not.toBe(true);
    await settle();
    expect(client.updates).toEqual([URI, VIEW_URI]);
    // A real change after the reload is heard, once per resource.
    await client.call('planning_mark_step', { step_id: 'S001', status: 'done' });
    await settle();
    expect(client.updates).toEqual([URI, VIEW_URI, URI, VIEW_URI]);
    ok(await pool.close());
  });

  it('refuses a call, a read and a subscribe with no identity: no shared default', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store });
    const client = await major.connect(pool.resolver(major.byIdentity), undefined);
    const result = await client.call('planning_setup_plan', setup('Ship'));
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^Tool validation failed: .*names no conversation/);
    await expect(client.readPlan()).rejects.toThrow(/session_unresolved/);
    await expect(client.subscribe()).rejects.toThrow(/session_unresolved/);
    expect(calls).toEqual([]);
    expect(pool.size).toBe(0);
  });

  it('refuses hostile ids before the resolver or a store sees them', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store });
    const seen: McpContext[] = [];
    const resolver = pool.resolver(major.byIdentity);
    const source = (context: McpContext) => {
      seen.push(context);
      return resolver(context);
    };
    // Strings travel as ids; other JSON values only in _meta (v1 ids are strings).
    const hostile = HOSTILE_IDS.filter(
      (id) =>
        id !== undefined &&
        typeof id !== 'symbol' &&
        typeof id !== 'bigint' &&
        typeof id !== 'function' &&
        !(typeof id === 'object' && id !== null && 'toString' in id && !Array.isArray(id)) &&
        (major.name === 'v2' || typeof id === 'string') &&
        (typeof id !== 'string' || id.length <= 10 * 1024),
    );
    for (const id of hostile) {
      const client = await major.connect(source, id);
      const result = await client.call('planning_read_plan', {});
      expect(result.isError, String(id).slice(0, 40)).toBe(true);
      expect(result.content[0]?.text).toMatch(
        /^Tool validation failed: (sessionId|_meta\["plankit\/planId"\]) must be 1-256 characters/,
      );
      expect(result.content[0]?.text.length).toBeLessThan(2_000);
      expect(result.content[0]?.text).not.toContain('\u0000');
    }
    expect(seen).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('keeps the { session } form: a Session serves every client', async () => {
    const session = new Session({ sessionId: 'one' });
    const client = await major.connect(session, undefined);
    expect((await client.call('planning_setup_plan', setup('Ship'))).isError).toBeUndefined();
    expect((await client.readPlan())?.objective).toBe('Ship');
  });
});
