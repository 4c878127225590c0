import { deepEqual } from './internal/deep-equal.ts';
import type { ReducerEvent } from './reducer.ts';

/**
 * Built-in reducer: appends the value unless an equal value (compared structurally) is
 * already in the slice.
 *
 * @public
 */
export function append<T>(slice: readonly T[], event: ReducerEvent<T>): readonly T[] {
  for (const item of slice) if (deepEqual(item, event.value)) return slice;
  return [...slice, event.value];
}
