import type { DataType } from './define-data-type.ts';
import { dataTypeName } from './define-data-type.ts';
import { Session } from './session.ts';
import type { SessionSnapshot } from './session-snapshot.ts';

/** A live session or one of its snapshots: selectors read either. @public */
export type SessionOrSnapshot = Session | SessionSnapshot;

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * Every value in the slice of `dataType`, oldest first (empty when the slice was never written).
 *
 * @public
 */
export function selectAll<T>(source: SessionOrSnapshot, dataType: DataType<T>): readonly T[] {
  const slices = source instanceof Session ? source.snapshot().slices : source.slices;
  return (slices[dataTypeName(dataType)] ?? EMPTY) as readonly T[];
}
