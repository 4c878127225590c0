import { invalidArgument } from './internal/invalid-argument.ts';
import type { Reducer } from './reducer.ts';

/** Picks the identity of an item: a property name or a function. @public */
export type UpsertKey<T> = (keyof T & string) | ((item: T) => unknown);

// Same key, same reducer: registering `upsertBy('id')` twice on a session stays a no-op.
const byName = new Map<string, unknown>();
const byFunction = new WeakMap<(item: never) => unknown, unknown>();

/**
 * Built-in reducer factory: replaces the item whose key equals the value's key, in place, or
 * appends the value when no item has that key.
 *
 * @param key - a property name, or a function returning the key
 * @example
 * ```ts
 * session.register(Contact, upsertBy('email'));
 * ```
 * @public
 */
export function upsertBy<T>(key: UpsertKey<T>): Reducer<T> {
  const cache =
    typeof key === 'string'
      ? byName.get(key)
      : typeof key === 'function'
        ? byFunction.get(key)
        : undefined;
  if (cache !== undefined) return cache as Reducer<T>;
  if (typeof key !== 'string' && typeof key !== 'function') {
    throw invalidArgument('upsertBy', 'key', 'must be a property name or a function');
  }
  const keyOf = typeof key === 'string' ? (item: T) => (item as Record<string, unknown>)[key] : key;
  const reducer: Reducer<T> = (slice, event) => {
    const wanted = keyOf(event.value);
    const index = slice.findIndex((item) => Object.is(keyOf(item), wanted));
    if (index === -1) return [...slice, event.value];
    const next = slice.slice();
    next[index] = event.value;
    return next;
  };
  if (typeof key === 'string') byName.set(key, reducer);
  else byFunction.set(key as (item: never) => unknown, reducer);
  return reducer;
}
