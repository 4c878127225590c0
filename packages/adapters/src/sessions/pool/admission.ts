import type { Result } from '@plankit/core';
import type { SessionResolveError } from '../session-resolve-error.ts';
import { OK_VOID, refused } from './pool-results.ts';

/** A request waiting for a slot. */
interface Waiter {
  readonly grant: (outcome: Result<void, SessionResolveError>) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Granted, timed out or refused: no longer waiting. */
  settled: boolean;
}

/** The limits admission applies: the pool's `max`, `maxWaiting` and `waitTimeoutMs`. */
export interface AdmissionLimits {
  readonly max: number;
  readonly maxWaiting: number;
  readonly waitTimeoutMs: number;
}

/** What admission asks of the live sessions to find a slot. */
export interface Slots {
  /** How many sessions are live. */
  live(): number;
  /**
   * Evicts the least recently used live session that nothing holds, without admitting
   * anyone from inside (the slot is the caller's). False when every live session is held.
   */
  evictIdle(): boolean;
}

/**
 * Who may load a conversation now: a load takes a slot (a free one, or an idle session's,
 * evicted), and while every live session is held, requests wait in a queue, oldest first,
 * up to `maxWaiting` of them and `waitTimeoutMs` each.
 */
export class Admission {
  readonly #limits: AdmissionLimits;
  readonly #slots: Slots;
  // Requests waiting for a slot, oldest first, from `#head` on (settled ones are skipped).
  #waiters: Waiter[] = [];
  #head = 0;
  #waiting = 0;
  // Loads admitted (each took a slot) that are not live yet.
  #admitted = 0;

  constructor(limits: AdmissionLimits, slots: Slots) {
    this.#limits = limits;
    this.#slots = slots;
  }

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Loads admitted that are not live yet. */
  get admitted(): number {
    return this.#admitted;
  }

  /** Admits a load: at once when a slot can be had, else after the requests before it. */
  admit(id: string): Promise<Result<void, SessionResolveError>> {
    if (this.#waiting === 0 && this.#takeSlot()) return Promise.resolve(OK_VOID);
    const { max, maxWaiting, waitTimeoutMs } = this.#limits;
    if (this.#waiting >= maxWaiting) {
      return Promise.resolve(
        refused(
          'pool_full',
          `All ${max} live sessions are in use and ${this.#waiting} requests are waiting, so conversation ${id} was not loaded. Try again shortly.`,
          id,
        ),
      );
    }
    return new Promise((grant) => {
      const waiter: Waiter = { grant, timer: undefined, settled: false };
      this.#waiters.push(waiter);
      this.#waiting++;
      waiter.timer = setTimeout(() => {
        if (waiter.settled) return;
        waiter.settled = true;
        this.#waiting--;
        this.#compactQueue();
        grant(
          refused(
            'pool_full',
            `All ${max} live sessions stayed in use for ${waitTimeoutMs} ms, so conversation ${id} was not loaded. Try again shortly.`,
            id,
          ),
        );
      }, waitTimeoutMs);
    });
  }

  /** An admitted load ended (live now, or failed): it no longer counts against the slots. */
  loaded(): void {
    this.#admitted--;
  }

  /** Gives freed slots to the waiting requests, oldest first. */
  admitWaiting(): void {
    for (let waiter = this.#waiters[this.#head]; waiter !== undefined; ) {
      if (!waiter.settled) {
        if (!this.#takeSlot()) break;
        waiter.settled = true;
        this.#waiting--;
        clearTimeout(waiter.timer);
        waiter.grant(OK_VOID);
      }
      this.#head++;
      waiter = this.#waiters[this.#head];
    }
    this.#compactQueue();
  }

  /** Refuses every waiting request with a refusal of its own (the pool is closing). */
  refuseWaiting(refusal: () => Result<void, SessionResolveError>): void {
    for (let index = this.#head; index < this.#waiters.length; index++) {
      const waiter = this.#waiters[index];
      if (waiter === undefined || waiter.settled) continue;
      waiter.settled = true;
      clearTimeout(waiter.timer);
      waiter.grant(refusal());
    }
    this.#waiters = [];
    this.#head = 0;
    this.#waiting = 0;
  }

  /**
   * Takes a slot for a load: a free one, or the one of the least recently used live session
   * that nothing holds, evicted now. False when every live session is held.
   */
  #takeSlot(): boolean {
    if (this.#slots.live() + this.#admitted >= this.#limits.max) {
      if (!this.#slots.evictIdle()) return false;
    }
    this.#admitted++;
    return true;
  }

  /** Drops settled requests from the queue's front: its memory follows the requests waiting now. */
  #compactQueue(): void {
    while (this.#waiters[this.#head]?.settled === true) this.#head++;
    if (this.#head === this.#waiters.length) {
      this.#waiters = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#waiters.length) {
      this.#waiters = this.#waiters.slice(this.#head);
      this.#head = 0;
    }
  }
}
