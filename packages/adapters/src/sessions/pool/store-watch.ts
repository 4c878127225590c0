import type {
  SessionStore,
  StopWatching,
  StoreCommit,
} from '../../persistence/stores/session-store.ts';
import type { StoreError } from '../../persistence/stores/store-error.ts';

/**
 * A pool's watch on its store's commits (a store with `watch`, such as `PostgresStore`):
 * started with the first subscription, so a pool nobody subscribes to holds no connection,
 * and started again by the next subscription after its connection failed.
 */
export class StoreWatch {
  readonly #store: SessionStore;
  readonly #heard: (commit: StoreCommit) => void;
  readonly #onError: (error: StoreError) => void;
  #watching: Promise<StopWatching | undefined> | undefined;
  #closed = false;

  constructor(
    store: SessionStore,
    heard: (commit: StoreCommit) => void,
    onError: (error: StoreError) => void,
  ) {
    this.#store = store;
    this.#heard = heard;
    this.#onError = onError;
  }

  /** Starts watching, unless the store cannot, the pool is closing, or it already does. */
  start(): void {
    if (this.#closed || this.#watching !== undefined || typeof this.#store.watch !== 'function')
      return;
    const ended = (error: StoreError): void => {
      this.#watching = undefined;
      this.#onError(error);
    };
    this.#watching = this.#store.watch(this.#heard, ended).then((watching) => {
      if (watching.ok) return watching.value;
      ended(watching.error);
      return undefined;
    });
  }

  /** Stops watching for good (the pool is closing). */
  async close(): Promise<void> {
    this.#closed = true;
    const stop = await this.#watching;
    this.#watching = undefined;
    await stop?.();
  }
}
