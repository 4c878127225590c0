import type { DataType } from './define-data-type.ts';
import { type SessionOrSnapshot, selectAll } from './select-all.ts';

/**
 * The values in the slice of `dataType` for which `predicate` is true, oldest first.
 *
 * @public
 */
export function selectWhere<T>(
  source: SessionOrSnapshot,
  dataType: DataType<T>,
  predicate: (value: T, index: number) => boolean,
): readonly T[] {
  return selectAll(source, dataType).filter(predicate);
}
