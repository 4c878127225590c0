import type { ToolResult } from './tool-result.ts';

/**
 * Published on the session's bus once per {@link invokeTool} call, successful or not. The
 * session applies successful results to its reducers; failed ones change nothing.
 *
 * @public
 */
export interface ToolInvoked {
  /** The discriminant. */
  readonly type: 'ToolInvoked';
  /** The session the tool ran against. */
  readonly sessionId: string;
  /** The tool's name. */
  readonly tool: string;
  /** The parsed parameters, or the raw arguments when they failed the schema. */
  readonly params: unknown;
  /** The result handed back to the caller. */
  readonly result: ToolResult<unknown>;
  /** Name of the data type the result value is reduced as, or `null` for read-only tools. */
  readonly resultType: string | null;
  /** When the call happened, in epoch milliseconds from the session's clock or the caller. */
  readonly at: number;
}

/** One value applied to a session by a commit. @public */
export interface SessionChange {
  /** The data type the value was dispatched as. */
  readonly dataType: string;
  /** The dispatched value. */
  readonly value: unknown;
}

/** Published after a dispatch changed a session's state. @public */
export interface SessionCommitted {
  /** The discriminant. */
  readonly type: 'SessionCommitted';
  /** The session that changed. */
  readonly sessionId: string;
  /** The session's revision after the commit. */
  readonly revision: number;
  /** The values applied, in order. */
  readonly changes: readonly SessionChange[];
  /** When, in epoch milliseconds. */
  readonly at: number;
}

/** Published after {@link Session.rollback} restored earlier state. @public */
export interface SessionRolledBack {
  /** The discriminant. */
  readonly type: 'SessionRolledBack';
  /** The session that was rolled back. */
  readonly sessionId: string;
  /** The session's revision after the rollback (revisions only grow). */
  readonly revision: number;
  /** The revision of the snapshot that was restored. */
  readonly restoredRevision: number;
  /** When, in epoch milliseconds. */
  readonly at: number;
}

/** Every event plankit publishes, discriminated by `type`. @public */
export type PlankitEvent = ToolInvoked | SessionCommitted | SessionRolledBack;
