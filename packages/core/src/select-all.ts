import type { DataType } from './define-data-type.ts';
import { dataTypeName } from './define-data-type.ts';
import { Session } from './session.ts';
import type { SessionSnapshot } from './session-snapshot.ts';

/** A live session or one of its snapshots: selectors read either. @public */
export type SessionOrSnapshot = Session | SessionSnapshot;

/**
 * A live session or one of its snapshots.
 *
 * @deprecated Renamed {@link SessionOrSnapshot}: `@plankit/adapters`' `SessionSource` (a
 * session or a resolver) keeps the name. This alias goes away in the next minor release.
 * @public
 */
export type SessionSource = SessionOrSnapshot;

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
