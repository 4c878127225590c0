import type { Result } from '@plankit/core';
import type { StoreError } from '../../persistence/stores/store-error.ts';
import type { SessionResolveError } from '../session-resolve-error.ts';
import type { LiveSession } from './live-session.ts';
import { inFamily, OK_ZERO } from './pool-results.ts';
import { publishPoolEvent } from './publish-pool-event.ts';
import { unwire } from './subscriptions.ts';

/**
 * The live copies, least recently used first, and how they leave: eviction (flushed, then
 * detached and disposed) and the drop of a copy whose attachment failed. A load of an id
 * waits for its eviction's flush ({@link LiveSessions.leaving}).
 */
export class LiveSessions {
  // Insertion order is recency: the first entry is the least recently used.
  readonly #live = new Map<string, LiveSession>();
  // Evictions whose flush is in progress: a load of the id waits for them.
  readonly #leaving = new Map<string, Promise<Result<number, StoreError>>>();
  // The last entry of #live, so touching it again costs nothing.
  #recent: LiveSession | undefined;
  #evictions = 0;
  readonly #freed: () => void;

  /** @param freed - called when a slot is freed, to give it to a waiting request */
  constructor(freed: () => void) {
    this.#freed = freed;
  }

  /** The number of live sessions. */
  get size(): number {
    return this.#live.size;
  }

  /** Sessions evicted so far. */
  get evictions(): number {
    return this.#evictions;
  }

  /** Live sessions held by a run or a tool call. */
  held(): number {
    let held = 0;
    for (const live of this.#live.values()) if (live.uses > 0) held++;
    return held;
  }

  get(id: string): LiveSession | undefined {
    return this.#live.get(id);
  }

  has(id: string): boolean {
    return this.#live.has(id);
  }

  /** Every live copy, least recently used first. */
  all(): LiveSession[] {
    return [...this.#live.values()];
  }

  /** Adds a copy just loaded, as the most recently used. */
  add(live: LiveSession): void {
    this.#live.set(live.id, live);
    this.#recent = live;
  }

  /** Makes `live` the most recently used. */
  touch(live: LiveSession): void {
    if (this.#recent === live) return;
    this.#recent = live;
    this.#live.delete(live.id);
    this.#live.set(live.id, live);
  }

  /** The flush of `id`'s eviction in progress, if one is. */
  leaving(id: string): Promise<Result<number, StoreError>> | undefined {
    return this.#leaving.get(id);
  }

  /** The evictions in progress, by id. */
  allLeaving(): [string, Promise<Result<number, StoreError>>][] {
    return [...this.#leaving.entries()];
  }

  /**
   * Evicts the least recently used copy that nothing holds, without giving its slot to a
   * waiting request (the caller takes it). False when every copy is held.
   */
  evictIdle(): boolean {
    for (const live of this.#live.values()) {
      if (live.uses === 0) {
        void this.evict(live, 'capacity', false);
        return true;
      }
    }
    return false;
  }

  /**
   * Removes `live` from the pool now; when the current turn ends, detaches and disposes it,
   * then waits for the flush of what it changed. Until then it is still saved and its
   * subscribers still hear it, so a caller that got it from `get` in this turn and changes it
   * before awaiting I/O loses nothing. `reason` is what `plankit:pool` reports.
   */
  evict(
    live: LiveSession,
    reason: 'capacity' | 'explicit' | 'close',
    admit = true,
  ): Promise<Result<number, StoreError>> {
    const { id } = live;
    this.#evictions++;
    this.#forget(live);
    this.#published(id, reason);
    const done = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const flushing = live.attachment.detach();
      // Disposed before the flush is awaited: a call on the detached copy must fail, not
      // report a change that is never saved.
      unwire(live);
      live.session.dispose();
      const flushed = await flushing;
      // A failed flush is the attachment's failure, which onError has been told about.
      return flushed;
    })();
    const leaving = done.finally(() => {
      if (this.#leaving.get(id) === leaving) this.#leaving.delete(id);
    });
    this.#leaving.set(id, leaving);
    if (admit) this.#freed();
    return leaving;
  }

  /** Drops a copy whose attachment stopped: its unsaved changes cannot be saved any more. */
  dropFailed(live: LiveSession): void {
    if (live.gone) return;
    this.#forget(live);
    this.#published(live.id, 'failed');
    unwire(live);
    void live.attachment.detach();
    live.session.dispose();
    this.#freed();
  }

  /** `SessionPool.flush` of a checked id. */
  async flush(id: string): Promise<Result<number, SessionResolveError>> {
    const live = this.#live.get(id);
    if (live === undefined) return inFamily(id, (await this.#leaving.get(id)) ?? OK_ZERO);
    const flushed = await live.attachment.flush();
    if (!flushed.ok) this.dropFailed(live);
    return inFamily(id, flushed);
  }

  /** `SessionPool.evict` of a checked id: once nothing holds the copy, evicts it. */
  async evictWhenIdle(id: string): Promise<Result<number, SessionResolveError>> {
    const live = this.#live.get(id);
    if (live === undefined) return inFamily(id, (await this.#leaving.get(id)) ?? OK_ZERO);
    // A run may start again between its predecessor's end and this continuation.
    while (live.uses > 0) await new Promise<void>((resolve) => live.idle.push(resolve));
    if (live.gone)
      return inFamily(id, (await this.#leaving.get(id)) ?? (await live.attachment.flush()));
    return inFamily(id, await this.evict(live, 'explicit'));
  }

  /** Tells `plankit:pool` subscribers, if any, that `id` left the pool. */
  #published(id: string, reason: 'capacity' | 'explicit' | 'close' | 'failed'): void {
    publishPoolEvent(() => ({
      type: 'pool-evict',
      conversationId: id,
      reason,
      live: this.#live.size,
    }));
  }

  #forget(live: LiveSession): void {
    live.gone = true;
    if (this.#recent === live) this.#recent = undefined;
    if (this.#live.get(live.id) === live) this.#live.delete(live.id);
  }
}
