/** Out-of-band data attached to objects: see {@link brand}. */
export interface Brand<T> {
  /** Attaches `value` to `target` (an object not yet frozen); a second call does nothing. */
  set(target: object, value: T): void;
  /** The value attached to `target`, or undefined. */
  get(target: unknown): T | undefined;
}

/**
 * A constructor that returns the object it is given lets a subclass add its private field to
 * any object: invisible to keys, JSON, proxies and property checks, and about ten times
 * cheaper than a WeakMap entry on the hot path (one per commit and per tool call). The
 * controller extends it directly, without {@link brand}'s checks, for what each transition
 * reads: compiled machines, trace logs and trusted values.
 */
export class Identity {
  /** Returns `target` itself, for the subclass to add its private field to. */
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of the class
    return target;
  }
}

/** A fresh brand: a private field of its own, so brands never see each other's values. */
export function brand<T>(): Brand<T> {
  class Stamp extends Identity {
    readonly #value: T;
    constructor(target: object, value: T) {
      super(target);
      this.#value = value;
    }
    static get(target: unknown): T | undefined {
      return typeof target === 'object' && target !== null && #value in target
        ? (target as Stamp).#value
        : undefined;
    }
    static has(target: object): boolean {
      return #value in target;
    }
  }
  return {
    set: (target, value) => {
      if (!Stamp.has(target)) new Stamp(target, value);
    },
    get: Stamp.get,
  };
}
