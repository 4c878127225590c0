import type { DataType } from './define-data-type.ts';
import { dataTypeName } from './define-data-type.ts';
import { logsOfSlices } from './internal/call-log.ts';
import { type SessionOrSnapshot, selectAll } from './select-all.ts';
import { Session } from './session.ts';
import { ToolCall } from './tool-call.ts';

const LOG = dataTypeName(ToolCall);

/**
 * The newest value in the slice of `dataType`, or `undefined` when it is empty. On the
 * tool-call log of a session's snapshot it costs the same however long the log is.
 *
 * @example
 * ```ts
 * const plan = selectLatest(session, Plan);
 * ```
 * @public
 */
export function selectLatest<T>(source: SessionOrSnapshot, dataType: DataType<T>): T | undefined {
  const slices = source instanceof Session ? source.snapshot().slices : source.slices;
  const log = dataTypeName(dataType) === LOG ? logsOfSlices.get(slices) : undefined;
  if (log !== undefined && Object.hasOwn(slices, LOG)) return log.latest() as T | undefined;
  const values = selectAll(source, dataType);
  return values[values.length - 1];
}
