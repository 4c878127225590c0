import type { SessionStore } from '../../persistence/stores/session-store.ts';

/** A store that counts its loads, for tests of how often a pool reads the store. */
export interface CountingStore extends SessionStore {
  /** Calls of `load` so far. */
  readonly loads: number;
}

/** Wraps `store` so its `load` calls are counted; every other call goes straight through. */
export function countingStore(store: SessionStore): CountingStore {
  let loads = 0;
  const load: SessionStore['load'] = (...args) => {
    loads++;
    return store.load(...args);
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === 'load') return load;
      if (key === 'loads') return loads;
      const value: unknown = Reflect.get(target, key, target);
      // Stores keep private fields: their methods run on the store itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as CountingStore;
}
