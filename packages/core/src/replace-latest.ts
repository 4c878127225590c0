import type { ReducerEvent } from './reducer.ts';

/**
 * Built-in reducer: the slice keeps only the latest value.
 *
 * @public
 */
export function replaceLatest<T>(_slice: readonly T[], event: ReducerEvent<T>): readonly T[] {
  return [event.value];
}
