import type { DataType } from './define-data-type.ts';
import { type SessionSource, selectAll } from './select-all.ts';

/**
 * The newest value in the slice of `dataType`, or `undefined` when it is empty.
 *
 * @example
 * ```ts
 * const plan = selectLatest(session, Plan);
 * ```
 * @public
 */
export function selectLatest<T>(source: SessionSource, dataType: DataType<T>): T | undefined {
  const values = selectAll(source, dataType);
  return values[values.length - 1];
}
