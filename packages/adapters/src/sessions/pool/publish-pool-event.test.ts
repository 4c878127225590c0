import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { invokeTool } from '@plankit/core';
import { POOL_CHANNEL, type PoolEvent } from '@plankit/core/diagnostics';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MemoryStore } from '../../persistence/stores/memory-store.ts';
import { StoreError } from '../../persistence/stores/store-error.ts';
import { createSessionPool } from '../create-session-pool.ts';
import { gate, ok, SETUP, storeWith } from '../testing/pool-helpers.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function listen(): PoolEvent[] {
  const events: PoolEvent[] = [];
  const listener = (message: unknown) => events.push(message as PoolEvent);
  subscribe(POOL_CHANNEL, listener);
  onTestFinished(() => {
    unsubscribe(POOL_CHANNEL, listener);
  });
  return events;
}

describe('the session pool on plankit:pool', () => {
  it('reports loads, evictions for capacity, pool_full, an explicit eviction and the close', async () => {
    const events = listen();
    const pool = createSessionPool({ store: new MemoryStore(), max: 1, maxWaiting: 1 });
    ok(await pool.get('a'));
    // b takes a's slot.
    ok(await pool.get('b'));
    const { passed, open } = gate();
    const holding = pool.run('b', () => passed);
    await nextTurn();
    // c waits for the slot b holds; d finds the queue full.
    const waiting = pool.get('c');
    const refused = await pool.get('d');
    expect(!refused.ok && refused.error.code).toBe('pool_full');
    open();
    ok(await holding);
    ok(await waiting);
    ok(await pool.evict('c'));
    ok(await pool.get('e'));
    ok(await pool.close());
    expect(events).toEqual([
      { type: 'pool-load', conversationId: 'a', ok: true, code: null, live: 1 },
      { type: 'pool-evict', conversationId: 'a', reason: 'capacity', live: 0 },
      { type: 'pool-load', conversationId: 'b', ok: true, code: null, live: 1 },
      { type: 'pool-full', conversationId: 'd', live: 1, waiting: 1 },
      { type: 'pool-evict', conversationId: 'b', reason: 'capacity', live: 0 },
      { type: 'pool-load', conversationId: 'c', ok: true, code: null, live: 1 },
      { type: 'pool-evict', conversationId: 'c', reason: 'explicit', live: 0 },
      { type: 'pool-load', conversationId: 'e', ok: true, code: null, live: 1 },
      { type: 'pool-evict', conversationId: 'e', reason: 'close', live: 0 },
    ]);
    expect(events.every((event) => Object.isFrozen(event))).toBe(true);
  });

  it('reports a copy dropped when its store failed to save', async () => {
    const events = listen();
    const store = storeWith(new MemoryStore(), 'append', () => async () => ({
      ok: false,
      error: new StoreError('unreachable', 'The disk is gone.'),
    }));
    const pool = createSessionPool({ store, max: 2 });
    const ran = await pool.run('y', (session) =>
      invokeTool(SETUP, { objective: 'Ship' }, { session }),
    );
    expect(!ran.ok && ran.error.code).toBe('session_store_failed');
    expect(events).toContainEqual({
      type: 'pool-evict',
      conversationId: 'y',
      reason: 'failed',
      live: 0,
    });
    ok(await pool.close());
  });

  it('reports a failed load with its code', async () => {
    const events = listen();
    const store = storeWith(new MemoryStore(), 'load', () => async () => ({
      ok: false,
      error: new StoreError('unreachable', 'The disk is gone.'),
    }));
    const pool = createSessionPool({ store, max: 2 });
    const got = await pool.get('x');
    expect(!got.ok && got.error.code).toBe('session_load_failed');
    expect(events).toEqual([
      { type: 'pool-load', conversationId: 'x', ok: false, code: 'session_load_failed', live: 0 },
    ]);
    ok(await pool.close());
  });
});
