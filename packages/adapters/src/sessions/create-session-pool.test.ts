import {
  defineDataType,
  InProcessEventBus,
  invokeTool,
  PlankitError,
  registerPlanningReducers,
  replaceLatest,
  Session,
  selectAll,
  ToolCall,
} from '@plankit/core';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { pooledConversations } from '../host/pooled-conversations.ts';
import { attachStore } from '../persistence/stores/attach-store.ts';
import { FileStore } from '../persistence/stores/file-store.ts';
import { MemoryStore } from '../persistence/stores/memory-store.ts';
import type { SessionStore } from '../persistence/stores/session-store.ts';
import { StoreError } from '../persistence/stores/store-error.ts';
import { createSessionPool } from './create-session-pool.ts';
import { resolveSession } from './resolve-session.ts';
import { SessionResolveError } from './session-resolve-error.ts';
import { countingStore } from './testing/counting-store.ts';
import { HOSTILE_IDS } from './testing/hostile-ids.ts';
import {
  ADD,
  cleanup,
  gate,
  inParallel,
  MARK,
  ok,
  planOf,
  READ,
  SETUP,
  spyStore,
  storeWith,
  tempDirectory,
} from './testing/pool-helpers.ts';

afterEach(cleanup);

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function setupArgs(id: string) {
  return {
    objective: `plan of ${id}`,
    initial_steps: [{ title: `first ${id}` }, { title: 'second' }],
  };
}

/** The plan every conversation of `conversationsThrough` must end with. */
function expectedPlan(id: string) {
  return {
    objective: `plan of ${id}`,
    status: 'active',
    steps: [
      { step_id: 'S001', title: `first ${id}`, details: null, status: 'done', notes: [] },
      { step_id: 'S002', title: 'second', details: null, status: 'pending', notes: [] },
      { step_id: 'S003', title: `added ${id}`, details: null, status: 'pending', notes: [] },
    ],
  };
}

/**
 * Puts `count` conversations through a pool of `max`: sets each plan up, then (after every
 * one was evicted) marks and adds in a second pass, then reads every plan back through the
 * pool and through a fresh attachment.
 */
async function conversationsThrough(store: SessionStore, count: number, max: number) {
  const pool = createSessionPool({ store, max });
  const ids = Array.from({ length: count }, (_, i) => `conv-${i}`);
  let peak = 0;
  const call = async (id: string, tool: typeof SETUP | typeof MARK | typeof ADD, args: unknown) => {
    const result = ok(await pool.run(id, (session) => invokeTool(tool, args, { session })));
    expect(result.success, result.message).toBe(true);
    peak = Math.max(peak, pool.size);
  };
  await inParallel(ids, 20, (id) => call(id, SETUP, setupArgs(id)));
  await nextTurn();
  expect(pool.size).toBeLessThanOrEqual(max);
  await inParallel(ids, 20, async (id) => {
    await call(id, MARK, { step_id: 'S001', status: 'done' });
    await call(id, ADD, { steps: [{ title: `added ${id}` }] });
  });
  expect(peak).toBeLessThanOrEqual(max);
  await inParallel(ids, 20, async (id) => {
    const session = ok(await pool.get(id));
    expect(planOf(session)).toEqual(expectedPlan(id));
  });
  ok(await pool.close());
  expect(pool.size).toBe(0);
  // What the store holds, read without the pool.
  for (const id of ids) {
    const session = new Session({ sessionId: id });
    registerPlanningReducers(session);
    ok(await attachStore(session, store));
    expect(planOf(session)).toEqual(expectedPlan(id));
  }
}

describe('createSessionPool', () => {
  it('puts 1,000 conversations through a pool of 50 on MemoryStore, each plan intact', async () => {
    await conversationsThrough(new MemoryStore(), 1000, 50);
  }, 60_000);

  it('puts 1,000 conversations through a pool of 50 on FileStore, each plan intact', async () => {
    await conversationsThrough(new FileStore({ directory: await tempDirectory() }), 1000, 50);
  }, 180_000);

  it('gives concurrent gets of one id one Session, loaded once', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store, max: 5 });
    const got = await Promise.all(Array.from({ length: 50 }, () => pool.get('thread-1')));
    const sessions = new Set(got.map(ok));
    expect(sessions.size).toBe(1);
    expect(calls.filter(([method]) => method === 'load')).toEqual([['load', 'thread-1']]);
    expect(ok(await pool.get('thread-1'))).toBe([...sessions][0]);
    expect(pool.size).toBe(1);
    ok(await pool.close());
  });

  it('keeps one plan per conversation', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const resolver = pool.resolver((context: { threadId?: string }) => context.threadId);
    for (const threadId of ['a', 'b']) {
      const session = ok(await resolveSession(resolver, { threadId }));
      await invokeTool(SETUP, setupArgs(threadId), { session });
    }
    const a = ok(await resolveSession(resolver, { threadId: 'a' }));
    const b = ok(await resolveSession(resolver, { threadId: 'b' }));
    expect(a).not.toBe(b);
    expect(planOf(a)?.objective).toBe('plan of a');
    expect(planOf(b)?.objective).toBe('plan of b');
    ok(await pool.close());
  });

  it('flushes an evicted session: a reload sees every acknowledged change', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store, max: 1 });
    const first = ok(await pool.get('one'));
    await invokeTool(SETUP, setupArgs('one'), { session: first });
    await invokeTool(ADD, { steps: [{ title: 'late' }] }, { session: first });
    // Loading another evicts "one" with its changes still being appended.
    ok(await pool.get('two'));
    expect(pool.has('one')).toBe(false);
    expect(pool.size).toBe(1);
    const again = ok(await pool.get('one'));
    expect(again).not.toBe(first);
    expect(planOf(again)).toEqual(planOf(first));
    expect(planOf(again)?.steps.map((step) => step.title)).toEqual(['first one', 'second', 'late']);
    // The reload waited for the evicted copy's flush: its appends come before the second load.
    const oneCalls = calls.filter(([, id]) => id === 'one').map(([method]) => method);
    expect(oneCalls.lastIndexOf('append')).toBeLessThan(oneCalls.lastIndexOf('load'));
    ok(await pool.close());
  });

  it('saves a change made to an evicted session before the turn ends', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store, max: 1 });
    const [one, two] = await Promise.all([pool.get('one'), pool.get('two')]);
    // "one" was evicted by the load of "two", in this same turn: it is still attached.
    expect(pool.size).toBe(1);
    await invokeTool(SETUP, setupArgs('one'), { session: ok(one) });
    await invokeTool(SETUP, setupArgs('two'), { session: ok(two) });
    ok(await pool.close());
    for (const id of ['one', 'two']) expect(ok(await store.load(id)).version).toBe(1);
  });

  it('refuses a tool call on an evicted copy while its last flush is still writing', async () => {
    const inner = new MemoryStore();
    const { passed, open } = gate();
    // Appends wait at the gate: the evicted copy's detach stays in its flush meanwhile.
    const store = storeWith(inner, 'append', (append) => async (...args) => {
      await passed;
      return append(...args);
    });
    const pool = createSessionPool({ store, max: 1 });
    const heard: number[] = [];
    ok(pool.subscribe('one', (event) => heard.push(event.revision)));
    const one = ok(await pool.get('one'));
    await invokeTool(SETUP, setupArgs('one'), { session: one });
    const two = pool.get('two');
    // The eviction's turn has ended: "one" is detached, its flush waiting for the store.
    await nextTurn();
    await nextTurn();
    const late = await invokeTool(MARK, { step_id: 'S001', status: 'done' }, { session: one });
    expect(late.success).toBe(false);
    expect(heard).toEqual([1]);
    open();
    ok(await two);
    ok(await pool.close());
    expect(ok(await inner.load('one')).version).toBe(1);
  });

  it('ends a subscription on an evicted copy too: nothing is heard after unsubscribe', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store, max: 1 });
    const heard: number[] = [];
    const subscribed = ok(pool.subscribe('one', (event) => heard.push(event.revision)));
    const [one] = await Promise.all([pool.get('one'), pool.get('two')]);
    // "one" was evicted by the load of "two", in this same turn: still attached, still wired.
    expect(pool.has('one')).toBe(false);
    await invokeTool(SETUP, setupArgs('one'), { session: ok(one) });
    expect(heard).toEqual([1]);
    subscribed();
    await invokeTool(MARK, { step_id: 'S001', status: 'done' }, { session: ok(one) });
    expect(heard).toEqual([1]);
    ok(await pool.close());
    expect(ok(await store.load('one')).version).toBe(2);
  });

  it('evicts only sessions not in use by a run: a load waits for a slot while all are held', async () => {
    const pool = createSessionPool({ store: new MemoryStore(), max: 1 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const running = pool.run('busy', async (session) => {
      await held;
      return invokeTool(SETUP, setupArgs('busy'), { session });
    });
    await nextTurn();
    const other = pool.get('other');
    await nextTurn();
    // "busy" is held, so "other" waits for its slot instead of overshooting max.
    expect(pool.has('busy')).toBe(true);
    expect(pool.has('other')).toBe(false);
    expect(pool.stats()).toMatchObject({ live: 1, held: 1, waiting: 1, loads: 1 });
    release();
    expect(ok(await running).success).toBe(true);
    ok(await other);
    expect(pool.has('busy')).toBe(false);
    expect(pool.stats()).toMatchObject({ live: 1, held: 0, waiting: 0, loads: 2, evictions: 1 });
    ok(await pool.get('third'));
    await nextTurn();
    expect(pool.size).toBe(1);
    expect(pool.has('third')).toBe(true);
    const reloaded = ok(await pool.get('busy'));
    expect(planOf(reloaded)?.objective).toBe('plan of busy');
    ok(await pool.close());
  });

  it('never reloads in a loop while every live session is held: one load per admission', async () => {
    const store = countingStore(new MemoryStore());
    const pool = createSessionPool({ store, max: 2 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = ['a', 'b'].map((id) => pool.run(id, () => held));
    await nextTurn();
    const waiting = pool.run('c', (session) => invokeTool(SETUP, setupArgs('c'), { session }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The slow runs hold both slots: "c" waits, and the store is not read for it meanwhile.
    expect(store.loads).toBe(2);
    expect(pool.stats()).toMatchObject({ live: 2, held: 2, loading: 0, waiting: 1, loads: 2 });
    release();
    for (const run of slow) ok(await run);
    expect(ok(await waiting).success).toBe(true);
    expect(store.loads).toBe(3);
    expect(pool.stats()).toMatchObject({ live: 2, held: 0, waiting: 0, loads: 3, evictions: 1 });
    ok(await pool.close());
  });

  it('counts a request waiting for a slot as waiting, not loading: live + loading stays within max', async () => {
    const { passed, open } = gate();
    // Loads wait at the gate, so an admitted load stays in progress.
    const store = storeWith(new MemoryStore(), 'load', (load) => async (...args) => {
      await passed;
      return load(...args);
    });
    const pool = createSessionPool({ store, max: 2 });
    const requests = ['a', 'b', 'c', 'd'].map((id) => pool.get(id));
    await nextTurn();
    // Two loads hold the two slots; the other two requests wait for one.
    expect(pool.stats()).toMatchObject({ live: 0, loading: 2, waiting: 2, loads: 2 });
    open();
    for (const request of requests) ok(await request);
    expect(pool.stats()).toMatchObject({ live: 2, loading: 0, waiting: 0, loads: 4 });
    ok(await pool.close());
  });

  it('keeps the model-order keys of idle conversations while over 1,024 others wait for a slot', async () => {
    const { passed, open } = gate();
    const store = storeWith(new MemoryStore(), 'load', (load) => async (...args) => {
      await passed;
      return load(...args);
    });
    const pool = createSessionPool({ store, max: 1, maxWaiting: 2000 });
    const conversations = pooledConversations<string>(pool.resolver((id: string) => id));
    if (conversations === undefined) throw new Error('not a pool resolver');
    // As the host pipeline does: each call names its conversation, then waits for a slot.
    const waiting = Array.from({ length: 1100 }, (_, index) => {
      conversations.keyOf(`busy-${index}`);
      return pool.get(`busy-${index}`);
    });
    const key = conversations.keyOf('late');
    for (let index = 0; index < 100; index++) conversations.keyOf(`other-${index}`);
    // The calls of one step find one key, so model order and retried call ids hold.
    expect(conversations.keyOf('late')).toBe(key);
    open();
    for (const request of waiting) ok(await request);
    ok(await pool.close());
  });

  it('keeps a load that never answers to its own slot: other conversations still load', async () => {
    const store = storeWith(
      new MemoryStore(),
      'load',
      (load) =>
        (...args) =>
          args[0] === 'stuck' ? new Promise(() => {}) : load(...args),
    );
    const pool = createSessionPool({ store, max: 2, waitTimeoutMs: 20 });
    void pool.get('stuck');
    await nextTurn();
    for (const id of ['a', 'b', 'c']) {
      ok(await pool.run(id, (session) => invokeTool(SETUP, setupArgs(id), { session })));
    }
    expect(pool.stats()).toMatchObject({ live: 1, loading: 1, waiting: 0 });
    // With the other slot held too, a request waits its waitTimeoutMs, then is refused.
    let release = () => {};
    const held = pool.run(
      'c',
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    await nextTurn();
    const refused = await pool.get('d');
    expect(!refused.ok && refused.error.code).toBe('pool_full');
    release();
    ok(await held);
    // close() stops waiting for the load that never answers at its time limit, and names it.
    const closed = await pool.close({ timeoutMs: 20 });
    expect(!closed.ok && closed.error.code).toBe('pool_close_timed_out');
    // 'c' is still live: close waited for the load first, so it was never flushed.
    expect(!closed.ok && closed.error.abandoned).toEqual(['c', 'stuck']);
  });

  it('refuses a load that takes longer than loadTimeoutMs and frees its slot', async () => {
    let loads = 0;
    const store = storeWith(new MemoryStore(), 'load', (load) => (...args) => {
      loads++;
      return args[0] === 'stuck' ? new Promise(() => {}) : load(...args);
    });
    const pool = createSessionPool({ store, max: 1, loadTimeoutMs: 20 });
    const stuck = await pool.get('stuck');
    expect(!stuck.ok && stuck.error.code).toBe('session_load_failed');
    expect(!stuck.ok && stuck.error.message).toBe(
      'Conversation stuck was not loaded: the store did not answer within 20 ms (loadTimeoutMs). Its slot was freed; try again shortly.',
    );
    expect(pool.stats()).toMatchObject({ live: 0, loading: 0, waiting: 0 });
    // The one slot is free again: another conversation loads, and close() ends.
    ok(await pool.run('other', (session) => invokeTool(SETUP, setupArgs('other'), { session })));
    expect(loads).toBe(2);
    ok(await pool.close());
  });

  it('drops a load that answers after loadTimeoutMs unused: the next get loads afresh', async () => {
    const inner = new MemoryStore();
    let open = () => {};
    const gated = new Promise<void>((resolve) => {
      open = resolve;
    });
    let first = true;
    const store = storeWith(inner, 'load', (load) => async (...args) => {
      if (first) {
        first = false;
        await gated;
      }
      return load(...args);
    });
    const bus = new InProcessEventBus();
    const pool = createSessionPool({ store, loadTimeoutMs: 20, sessionOptions: { bus } });
    const late = await pool.get('c');
    expect(!late.ok && late.error.code).toBe('session_load_failed');
    open();
    const session = ok(await pool.get('c'));
    await invokeTool(SETUP, setupArgs('c'), { session });
    ok(await pool.close());
    expect(ok(await inner.load('c')).version).toBe(1);
    // The late copy was disposed: nothing of it listens on the shared bus.
    expect(bus.publish({ type: 'ToolInvoked', sessionId: 'nobody' } as never).delivered).toBe(0);
  });

  it('close({ timeoutMs }) abandons a run that never ends and names its conversation', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store });
    ok(await pool.run('done', (session) => invokeTool(SETUP, setupArgs('done'), { session })));
    void pool.run('forever', () => new Promise(() => {}));
    await nextTurn();
    const closed = await pool.close({ timeoutMs: 20 });
    expect(closed.ok).toBe(false);
    if (!closed.ok) {
      expect(closed.error.code).toBe('pool_close_timed_out');
      expect(closed.error.abandoned).toEqual(['done', 'forever']);
      expect(closed.error.message).toBe(
        'The session pool stopped waiting after 20 ms (timeoutMs) and abandoned 2 conversations: done, forever. Their loads, runs or unsaved changes may still finish, or be lost.',
      );
    }
    expect(await pool.close()).toBe(closed);
    expect(() => pool.close({ timeoutMs: -1 })).toThrow(
      'SessionPool.close: options.timeoutMs must be an integer from 0 to 2147483647.',
    );
    expect(() => pool.close({ wait: 1 } as never)).toThrow(
      'SessionPool.close: options.wait is not an option.',
    );
  });

  it('refuses a request with pool_full after waitTimeoutMs, and at once past maxWaiting', async () => {
    const store = countingStore(new MemoryStore());
    const pool = createSessionPool({ store, max: 1, maxWaiting: 1, waitTimeoutMs: 20 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = pool.run('busy', () => held);
    await nextTurn();
    const timedOut = pool.get('late');
    const refused = await pool.run('later', () => 'never');
    expect(!refused.ok && refused.error.code).toBe('pool_full');
    expect(!refused.ok && refused.error.message).toMatch(/1 requests are waiting/);
    const late = await timedOut;
    expect(!late.ok && late.error.code).toBe('pool_full');
    expect(!late.ok && late.error.message).toMatch(/stayed in use for 20 ms/);
    expect(SessionResolveError.isInstance(!late.ok && late.error)).toBe(true);
    // Nothing was loaded for the refused requests, and the pool still serves the next one.
    expect(store.loads).toBe(1);
    release();
    ok(await slow);
    ok(await pool.get('late'));
    expect(store.loads).toBe(2);
    ok(await pool.close());
  });

  it('refuses waiting requests with pool_closed when the pool closes', async () => {
    const pool = createSessionPool({ store: new MemoryStore(), max: 1 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = pool.run('busy', () => held);
    await nextTurn();
    const waiting = pool.get('other');
    const closing = pool.close();
    const refused = await waiting;
    expect(!refused.ok && refused.error.code).toBe('pool_closed');
    release();
    ok(await slow);
    ok(await closing);
  });

  it('gives the same error family everywhere: empty ids, bad ids, store failures', async () => {
    const pool = createSessionPool({ store: new MemoryStore() });
    const resolver = pool.resolver((context: { id: string }) => context.id);
    const viaResolver = await resolveSession(resolver, { id: '' });
    const viaGet = await pool.get('');
    const viaRun = await pool.run('', () => undefined);
    const viaFlush = await pool.flush('');
    const viaEvict = await pool.evict('');
    for (const result of [viaResolver, viaGet, viaRun, viaFlush, viaEvict]) {
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(SessionResolveError.isInstance(result.error)).toBe(true);
      expect(result.error.code).toBe('session_unresolved');
    }
    const bad = await pool.flush('../etc');
    expect(!bad.ok && bad.error.code).toBe('conversation_id_invalid');
    const subscribed = pool.subscribe('', () => {});
    expect(!subscribed.ok && subscribed.error.code).toBe('session_unresolved');
    ok(await pool.close());
  });

  it('evict(id) flushes and drops one conversation; flush(id) acknowledges', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store });
    const session = ok(await pool.get('c'));
    await invokeTool(SETUP, setupArgs('c'), { session });
    expect(ok(await pool.flush('c'))).toBe(1);
    await invokeTool(MARK, { step_id: 'S001', status: 'done' }, { session });
    expect(ok(await pool.evict('c'))).toBe(2);
    expect(pool.has('c')).toBe(false);
    expect(ok(await pool.evict('c'))).toBe(0);
    expect(ok(await pool.flush('c'))).toBe(0);
    expect(ok(await store.load('c')).version).toBe(2);
    ok(await pool.close());
  });

  it('refuses hostile ids before the store sees them', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store });
    const resolver = pool.resolver((context: { id: unknown }) => context.id as string);
    for (const id of HOSTILE_IDS) {
      if (id === undefined || id === null || id === '') continue;
      const got = await pool.get(id as string);
      expect(got.ok).toBe(false);
      if (!got.ok) expect(got.error.code).toBe('conversation_id_invalid');
      const ran = await pool.run(id as string, () => 'ran');
      expect(ran.ok).toBe(false);
      const resolved = await resolveSession(resolver, { id });
      expect(resolved.ok).toBe(false);
      if (!resolved.ok) {
        expect(resolved.error.code).toBe('conversation_id_invalid');
        expect(resolved.error.message.length).toBeLessThan(2000);
      }
    }
    expect(calls).toEqual([]);
    expect(pool.size).toBe(0);
    ok(await pool.close());
  });

  it('answers a hit without a new promise: get returns one settled promise, the resolver the Session', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store, max: 2 });
    const resolver = pool.resolver((context: { threadId: string }) => context.threadId);
    const missed = resolver({ threadId: 'a' });
    expect(missed).toBeInstanceOf(Promise);
    const session = await missed;
    expect(resolver({ threadId: 'a' })).toBe(session);
    expect(pool.get('a')).toBe(pool.get('a'));
    expect(ok(await pool.get('a'))).toBe(session);
    // A hit still counts as a use: 'a' is the most recent, so 'b' is evicted for 'c'.
    ok(await pool.get('b'));
    expect(resolver({ threadId: 'a' })).toBe(session);
    ok(await pool.get('c'));
    expect([pool.has('a'), pool.has('b'), pool.has('c')]).toEqual([true, false, true]);
    expect(calls.filter(([method]) => method === 'load')).toHaveLength(3);
    // After close a hit is refused like any other call.
    ok(await pool.close());
    await expect(resolver({ threadId: 'a' })).rejects.toMatchObject({ code: 'pool_closed' });
  });

  it('refuses a context that names no conversation with session_unresolved', async () => {
    const { store, calls } = spyStore(new MemoryStore());
    const pool = createSessionPool({ store });
    const resolver = pool.resolver((context: { threadId?: string | null }) => context.threadId);
    for (const context of [{}, { threadId: null }, { threadId: '' }]) {
      const resolved = await resolveSession(resolver, context);
      expect(resolved.ok).toBe(false);
      if (!resolved.ok) {
        expect(resolved.error.code).toBe('session_unresolved');
        expect(resolved.error.message).toMatch(/names no conversation/);
      }
    }
    const throwing = pool.resolver(() => {
      throw new Error('config.configurable is missing');
    });
    const failed = await resolveSession(throwing, {});
    expect(failed.ok || failed.error.code).toBe('session_unresolved');
    expect(calls).toEqual([]);
    ok(await pool.close());
  });

  it('reports a store that cannot load as session_load_failed, keeping nothing', async () => {
    const store = new MemoryStore();
    ok(await store.append('broken', 0, [{ type: 'app.unknown', at: 1, data: {} }]));
    const pool = createSessionPool({ store });
    const got = await pool.get('broken');
    expect(got.ok).toBe(false);
    if (!got.ok) {
      expect(got.error.code).toBe('session_load_failed');
      expect(got.error.storeError?.code).toBe('replay_failed');
      expect(StoreError.isInstance(got.error.cause)).toBe(true);
    }
    expect(pool.size).toBe(0);
    ok(await pool.close());
  });

  it('disposes a copy whose load threw, so a shared bus keeps no listener of it', async () => {
    const bus = new InProcessEventBus();
    // A store breaking its contract: it rejects instead of returning a StoreError.
    const store = storeWith(
      new MemoryStore(),
      'load',
      () => () => Promise.reject(new Error('socket hang up')),
    );
    const pool = createSessionPool({ store, sessionOptions: { bus } });
    const listeners = () => bus.publish({ type: 'ToolInvoked', sessionId: 'nobody' } as never);
    await expect(pool.get('c')).rejects.toThrow('socket hang up');
    expect(pool.stats()).toMatchObject({ live: 0, loading: 0 });
    expect(listeners().delivered).toBe(0);
    ok(await pool.close());
  });

  it('registers the host reducers with setup, and attaches with the attach options', async () => {
    const Note = defineDataType('test.Note', z.strictObject({ text: z.string() }));
    const store = new MemoryStore();
    const pool = createSessionPool({
      store,
      setup: (session) => session.register(Note, replaceLatest),
      attach: { snapshotEvery: 1 },
    });
    const session = ok(await pool.get('n'));
    session.dispatch(Note, { text: 'hello' });
    ok(await pool.close());
    const loaded = ok(await store.load('n'));
    expect(loaded.snapshot?.version).toBe(1);
    const again = createSessionPool({ store, setup: (s) => s.register(Note, replaceLatest) });
    expect(selectAll(ok(await again.get('n')), Note)).toEqual([{ text: 'hello' }]);
    ok(await again.close());
  });

  it('refuses calls after close, and close flushes everything once', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store });
    const session = ok(await pool.get('c'));
    await invokeTool(SETUP, setupArgs('c'), { session });
    const [first, second] = await Promise.all([pool.close(), pool.close()]);
    expect(first).toEqual({ ok: true, value: undefined });
    expect(second).toBe(first);
    expect(ok(await store.load('c')).version).toBe(1);
    const got = await pool.get('c');
    expect(got.ok || got.error.code).toBe('pool_closed');
    const ran = await pool.run('c', () => 1);
    expect(ran.ok || ran.error.code).toBe('pool_closed');
  });

  it('refuses bad session and attach values when the pool is made, not at every load', () => {
    const store = new MemoryStore();
    const bad: [unknown, string][] = [
      [{ sessionOptions: { clock: 5 } }, 'options.sessionOptions.clock must be a function'],
      [{ sessionOptions: { bus: {} } }, 'options.sessionOptions.bus must be an EventBus'],
      [{ attach: { snapshotEvery: 0 } }, 'options.attach.snapshotEvery must be a positive'],
      [{ attach: { snapshotEvery: '5' } }, 'options.attach.snapshotEvery must be a positive'],
      [{ attach: { dataTypes: 'Note' } }, 'options.attach.dataTypes must be an array'],
      [{ attach: { dataTypes: [{}] } }, 'options.attach.dataTypes[0] must be a data type'],
    ];
    for (const [options, message] of bad) {
      expect(() => createSessionPool({ store, ...(options as object) })).toThrow(
        `createSessionPool: ${message}`,
      );
    }
    const Note = defineDataType('app.Note', z.object({ text: z.string() }));
    expect(() =>
      createSessionPool({
        store,
        sessionOptions: { bus: undefined, clock: undefined },
        attach: { snapshotEvery: Number.POSITIVE_INFINITY, dataTypes: [Note] },
      }),
    ).not.toThrow();
  });

  it('refuses a waitTimeoutMs longer than a timer waits, which would refuse every wait at once', async () => {
    const store = new MemoryStore();
    expect(() => createSessionPool({ store, waitTimeoutMs: 2 ** 31 })).toThrow(
      'createSessionPool: options.waitTimeoutMs must be at most 2147483647 (about 24.8 days), the longest a timer waits.',
    );
    expect(() => createSessionPool({ store, waitTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'argument_invalid', field: 'options.waitTimeoutMs' }),
    );
    ok(await createSessionPool({ store, waitTimeoutMs: 2 ** 31 - 1 }).close());
  });

  it('refuses bad options as a programmer error', () => {
    const store = new MemoryStore();
    const bad: unknown[] = [
      undefined,
      null,
      {},
      { store: {} },
      { store, max: 0 },
      { store, max: 1.5 },
      { store, max: Number.POSITIVE_INFINITY },
      { store, retries: -1 },
      { store, setup: 'x' },
      { store, onError: 1 },
      { store, sessionOptions: { sessionId: 'x' } },
      { store, attach: { onError: () => {} } },
      { store, unknown: 1 },
    ];
    for (const options of bad) {
      expect(() => createSessionPool(options as never)).toThrow(
        expect.objectContaining({ code: 'argument_invalid' }),
      );
    }
    const pool = createSessionPool({ store });
    expect(() => pool.resolver(undefined as never)).toThrow(PlankitError);
    expect(() => pool.run('a', undefined as never)).toThrow(PlankitError);
  });
});

describe('createSessionPool across processes (two pools on one store)', () => {
  it('retries a run whose append conflicts, on the fresh state, losing nothing', async () => {
    const store = new MemoryStore();
    const errors: StoreError[] = [];
    const a = createSessionPool({ store, onError: (error) => errors.push(error) });
    const b = createSessionPool({ store });
    ok(await a.run('shared', (session) => invokeTool(SETUP, setupArgs('shared'), { session })));
    // b loads the plan, then a changes it: b's copy is stale.
    ok(await b.get('shared'));
    ok(
      await a.run('shared', (session) =>
        invokeTool(ADD, { steps: [{ title: 'from a' }] }, { session }),
      ),
    );
    let attempts = 0;
    const added = ok(
      await b.run('shared', (session) => {
        attempts++;
        return invokeTool(ADD, { steps: [{ title: 'from b' }] }, { session });
      }),
    );
    expect(added.success).toBe(true);
    expect(attempts).toBe(2);
    // a's copy is stale now: its next change conflicts, is dropped and retried.
    ok(
      await a.run('shared', (session) =>
        invokeTool(MARK, { step_id: 'S003', status: 'done' }, { session }),
      ),
    );
    expect(errors.map((error) => error.code)).toEqual(['conflict']);
    ok(await a.close());
    ok(await b.close());
    const session = new Session({ sessionId: 'shared' });
    registerPlanningReducers(session);
    ok(await attachStore(session, store));
    expect(planOf(session)?.steps.map((step) => [step.step_id, step.title, step.status])).toEqual([
      ['S001', 'first shared', 'pending'],
      ['S002', 'second', 'pending'],
      ['S003', 'from a', 'done'],
      ['S004', 'from b', 'pending'],
    ]);
    expect(selectAll(session, ToolCall).map((call) => call.tool)).toEqual([
      'planning_setup_plan',
      'planning_add_step',
      'planning_add_step',
      'planning_mark_step',
    ]);
  });

  it('refuses with session_conflict once the retries run out', async () => {
    const store = new MemoryStore();
    const pool = createSessionPool({ store, retries: 1 });
    const rival = createSessionPool({ store });
    ok(await rival.run('c', (session) => invokeTool(SETUP, setupArgs('c'), { session })));
    let attempts = 0;
    const outcome = await pool.run('c', async (session) => {
      attempts++;
      // Another process writes while this call runs, every time.
      ok(
        await rival.run('c', (s) =>
          invokeTool(ADD, { steps: [{ title: `rival ${attempts}` }] }, { session: s }),
        ),
      );
      await invokeTool(ADD, { steps: [{ title: 'mine' }] }, { session });
    });
    expect(attempts).toBe(2);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('session_conflict');
      expect(outcome.error.storeError?.code).toBe('conflict');
      expect(SessionResolveError.isInstance(outcome.error)).toBe(true);
    }
    const titles = planOf(ok(await rival.get('c')))?.steps.map((step) => step.title);
    expect(titles).toEqual(['first c', 'second', 'rival 1', 'rival 2']);
    ok(await pool.close());
    ok(await rival.close());
  });

  it('drops a stale copy whose background append conflicted; flush reports the conflict', async () => {
    const store = new MemoryStore();
    const a = createSessionPool({ store });
    const b = createSessionPool({ store });
    const stale = ok(await b.get('c'));
    ok(await a.run('c', (session) => invokeTool(SETUP, setupArgs('c'), { session })));
    await invokeTool(SETUP, setupArgs('other'), { session: stale });
    const flushed = await b.flush('c');
    expect(flushed.ok || flushed.error.code).toBe('session_conflict');
    expect(flushed.ok || flushed.error.storeError?.code).toBe('conflict');
    expect(b.has('c')).toBe(false);
    const fresh = ok(await b.get('c'));
    expect(fresh).not.toBe(stale);
    expect(planOf(fresh)?.objective).toBe('plan of c');
    const read = await invokeTool(READ, {}, { session: fresh });
    expect(read.success).toBe(true);
    ok(await a.close());
    ok(await b.close());
  });

  it('does not retry a store failure other than a conflict', async () => {
    let failAppends = false;
    const store = storeWith(
      new MemoryStore(),
      'append',
      (append) =>
        async (...args) =>
          failAppends
            ? { ok: false, error: new StoreError('unreachable', 'The server went away.') }
            : append(...args),
    );
    const pool = createSessionPool({ store });
    ok(await pool.run('c', (session) => invokeTool(SETUP, setupArgs('c'), { session })));
    failAppends = true;
    let attempts = 0;
    const outcome = await pool.run('c', (session) => {
      attempts++;
      return invokeTool(ADD, { steps: [{ title: 'lost?' }] }, { session });
    });
    expect(attempts).toBe(1);
    expect(outcome.ok || outcome.error.code).toBe('session_store_failed');
    expect(pool.has('c')).toBe(false);
    failAppends = false;
    expect(planOf(ok(await pool.get('c')))?.steps).toHaveLength(2);
    ok(await pool.close());
  });
});
