import type { DataType } from '../define-data-type.ts';
import type { Result } from '../result.ts';
import type { SessionError } from '../session-error.ts';
import type { SessionSnapshot } from '../session-snapshot.ts';
import { type Brand, brand } from './brand.ts';

/**
 * What `invokeTool` attaches to the `ToolInvoked` event it publishes, out of band: the one
 * session meant to reduce it (other sessions may share its id and bus), the result's data
 * type, and a slot for that session's outcome.
 */
export interface ToolDelivery {
  /** The session the tool was invoked with. */
  readonly target: object;
  /** The data type the result value is dispatched as, or `null`. */
  readonly resultType: DataType | null;
  /** The call's id while someone listens on `plankit:tool-call` or `plankit:plan`. */
  readonly callId: string | undefined;
  /** Set by the target session once it has reduced (or refused) the result. */
  outcome: Result<SessionSnapshot, SessionError> | undefined;
}

/** Deliveries by event object; events published by anyone else have none. */
export const toolDeliveries: Brand<ToolDelivery> = brand();

/**
 * Snapshots `snapshotFromJSON` read, whose slices are known to satisfy their data types.
 * `Session.rollback` also trusts slices a session committed (they carry its call log) and
 * checks any other snapshot first.
 */
export const checkedSnapshots: Brand<true> = brand();
