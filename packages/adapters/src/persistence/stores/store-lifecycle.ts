import type { Result } from '@plankit/core';
import { StoreError } from './store-error.ts';

/**
 * Counts a store's calls in flight so `close()` can wait for them, and refuses calls once
 * the store is closed.
 */
export class StoreLifecycle {
  readonly #name: string;
  #closed = false;
  #inFlight = 0;
  #drained: (() => void) | undefined;
  #closing: Promise<void> | undefined;

  constructor(name: string) {
    this.#name = name;
  }

  /** Runs `call` unless the store is closed. */
  async run<T>(
    sessionId: string | undefined,
    call: () => Promise<Result<T, StoreError>>,
  ): Promise<Result<T, StoreError>> {
    if (this.#closed) {
      return {
        ok: false,
        error: new StoreError('closed', `${this.#name} is closed.`, { sessionId }),
      };
    }
    this.#inFlight++;
    try {
      return await call();
    } finally {
      this.#inFlight--;
      if (this.#inFlight === 0) this.#drained?.();
    }
  }

  /** Refuses new calls and resolves once those in flight have finished; every caller waits. */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??=
      this.#inFlight === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            this.#drained = resolve;
          });
    return this.#closing;
  }
}
