import { Identity } from '@plankit/core/internal-unstable';

/**
 * Marks the values this copy of the package built and checked, so functions that take them back
 * can skip checking them again; anything else is checked in full. The mark is a private field:
 * invisible to `Object.keys`, JSON, spread and `structuredClone`, impossible to forge, and,
 * unlike a WeakSet entry, free for the garbage collector.
 */
class Trusted extends Identity {
  readonly #trusted = true;

  static has(value: object): boolean {
    return #trusted in value;
  }
}

/**
 * Marks a value the package built and checked (a machine snapshot or a budget). Call it before
 * freezing the value. Generic over any object so the mark does not import the types it marks.
 */
export function trust<T extends object>(value: T): T {
  // The constructor returns `value` itself; returning it keeps bundlers from dropping the call.
  return new Trusted(value) as unknown as T;
}

/** True for a value the package built. */
export function isTrusted(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Trusted.has(value);
}
