// Conversations whose model-order key is kept after they stop being live: enough for a step's
// calls to find their turn again after an eviction between them.
const MIN_KEPT_KEYS = 1024;

/** What the model-order keys ask of the pool. */
export interface KeyHolders {
  /** The pool's `max`: four times it are kept, at least {@link MIN_KEPT_KEYS}. */
  readonly max: number;
  /** How many conversations are loading or waiting for a slot. */
  loading(): number;
  /** True when `id` is live or loading: its key is never dropped. */
  inUse(id: string): boolean;
}

/**
 * The model-order key of each conversation: one object shared by all its live copies, so a
 * step's tool calls keep their order across an eviction and a reload. Kept least recently
 * used first; the idle ones past the limit are dropped.
 */
export class ModelOrderKeys {
  readonly #holders: KeyHolders;
  readonly #keys = new Map<string, object>();
  // The last one asked for: asking again costs nothing.
  #lastId: string | undefined;
  #last: object | undefined;

  constructor(holders: KeyHolders) {
    this.#holders = holders;
  }

  /** The key of conversation `id`, made on first use. */
  keyOf(id: string): object {
    if (id === this.#lastId && this.#last !== undefined) return this.#last;
    let key = this.#keys.get(id);
    if (key === undefined) key = {};
    else this.#keys.delete(id);
    this.#keys.set(id, key);
    this.#lastId = id;
    this.#last = key;
    // Conversations loading or waiting for a slot keep theirs on top of the idle ones kept, so
    // a full pool's queue does not crowd out the keys of steps between their calls.
    const { max } = this.#holders;
    if (this.#keys.size > Math.max(MIN_KEPT_KEYS, 4 * max) + this.#holders.loading()) {
      for (const kept of this.#keys.keys()) {
        // Never the key just asked for, which the caller is about to use.
        if (kept === id || this.#holders.inUse(kept)) continue;
        this.#keys.delete(kept);
        break;
      }
    }
    return key;
  }
}
