import {
  AddStep,
  ClearPlan,
  type DataType,
  dataTypeName,
  MarkStep,
  type Result,
  type Session,
  type SessionSnapshot,
  SetupPlan,
  snapshotFromJSON,
  ToolCall,
  UpdateStep,
} from '@plankit/core';
import { SNAPSHOT_VERSION } from '@plankit/core/constants';
import {
  appendedLogEntries,
  clipText,
  formatPath,
  isRecord,
} from '@plankit/core/internal-unstable';
import { planningCommandsOf } from '@plankit/core/plan-model';
import { toJsonText } from './json-data.ts';
import type { StoredEvent } from './session-store.ts';

// The rules a logged change is held to, on write and on replay: one set, so the log never
// holds an event a reload would stop at.

/** The event type `attachStore` logs a session commit as: data `{ changes }`. @public */
export const SESSION_COMMITTED_EVENT = 'plankit.session.committed';

/** The event type `attachStore` logs a session rollback as: data `{ slices }`. @public */
export const SESSION_ROLLED_BACK_EVENT = 'plankit.session.rolled_back';

// The planning commands write the plan slice, not one of their own; so do the commands the
// planning extensions declare, which core records on the session as the tools register them,
// with the data types the extensions route to slices of their own.
const PLANNING_COMMANDS: readonly DataType[] = [
  SetupPlan,
  AddStep,
  UpdateStep,
  MarkStep,
  ClearPlan,
];

/**
 * Resolves data type names for replay: the session's slices, the given types, then the
 * commands and data types the session's planning extensions declared.
 */
export class DataTypes {
  readonly #session: Session;
  readonly #extra = new Map<string, DataType>();

  constructor(session: Session, extra: readonly DataType[]) {
    this.#session = session;
    for (const dataType of [...PLANNING_COMMANDS, ...extra])
      this.#extra.set(dataTypeName(dataType), dataType);
  }

  get(name: string): DataType | undefined {
    return (
      this.#session.sliceTypes().get(name) ??
      this.#extra.get(name) ??
      planningCommandsOf(this.#session).get(name)
    );
  }
}

type Slices = SessionSnapshot['slices'];

// Messages name values by a short excerpt: the refusal text must stay short.
const MAX_PROBLEM = 600;

/** `text` clipped to a short excerpt, for a message that quotes it. */
export const short = (text: string): string => clipText(text, MAX_PROBLEM);

/**
 * Reads `slices` as a rollback event is read: through `snapshotFromJSON`, so every value must
 * satisfy its slice's schema and whatever else core checks of a restored state (the plan
 * invariants). Commits and rollbacks are held to these same rules, on write and on replay.
 */
export function readSlices(session: Session, slices: unknown): Result<SessionSnapshot, Error> {
  return snapshotFromJSON(
    {
      format: 'plankit.session-snapshot',
      version: SNAPSHOT_VERSION,
      sessionId: session.sessionId,
      revision: 0,
      slices,
    },
    session,
  );
}

const LOG = dataTypeName(ToolCall);

/** The values a commit put into each slice: those not in the slice, by identity, before. */
function changedValues(before: Slices, after: Slices): Record<string, readonly unknown[]> {
  const changed: Record<string, readonly unknown[]> = {};
  for (const name of Object.keys(after)) {
    // The tool-call log only grows by appends: take the new entries from core, so a commit
    // costs O(change) however long the log (reading the slice would build it whole).
    const appended = name === LOG ? appendedLogEntries(before, after) : undefined;
    if (appended !== undefined) {
      if (appended.length > 0)
        Object.defineProperty(changed, name, { value: appended, enumerable: true });
      continue;
    }
    const next = after[name] ?? [];
    const previous = before[name];
    if (next === previous) continue;
    const values: unknown[] = [];
    // By index: reducers keep the values they leave alone (append, replaceLatest, upsertBy).
    for (let i = 0; i < next.length; i++) if (next[i] !== previous?.[i]) values.push(next[i]);
    if (values.length > 0)
      Object.defineProperty(changed, name, { value: values, enumerable: true });
  }
  return changed;
}

/** Why one change of a commit (as stored: JSON data) does not match its data type's schema. */
export function changeProblem(
  change: unknown,
  index: number,
  types: DataTypes,
): { readonly problem: string } | { readonly dataType: DataType; readonly value: unknown } {
  if (!isRecord(change) || typeof change['dataType'] !== 'string' || !('value' in change)) {
    return { problem: `change ${index} is not { dataType, value }` };
  }
  const name = change['dataType'];
  const dataType = types.get(name);
  if (dataType === undefined) {
    return {
      problem: `data type ${name} is unknown to the session: register its reducer, or pass it in options.dataTypes`,
    };
  }
  const value = change['value'];
  const check = dataType.safeParse(value);
  if (!check.success) {
    const issue = check.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${formatPath(issue.path)}` : '';
    return {
      problem: `change ${index} (${name}) does not match its schema${where}: ${issue?.message ?? 'invalid'}`,
    };
  }
  return { dataType, value };
}

/** Why the values a commit produced could not be read back as slices, if they could not. */
export function producedProblem(
  session: Session,
  before: Slices,
  after: Slices,
): string | undefined {
  const changed = changedValues(before, after);
  if (Object.keys(changed).length === 0) return undefined;
  // As stored: a later rollback or snapshot holds them as JSON data.
  const text = toJsonText(changed, 'slices', {});
  if ('problem' in text) return `${text.problem.path} ${text.problem.rule}`;
  const read = readSlices(session, JSON.parse(text.text));
  return read.ok ? undefined : `it produced a value it could not read back: ${read.error.message}`;
}

/** Applies one stored event to the session; why it could not be, if it could not. */
export function replay(session: Session, event: StoredEvent, types: DataTypes): string | undefined {
  // Stores refuse such times on append; one a host's store gives back must not make the
  // session's dispatch throw.
  if (!Number.isFinite(event.at)) return `its time is ${event.at}, not a finite number`;
  const start = session.snapshot();
  const before = start.revision;
  const { data } = event;
  if (event.type === SESSION_COMMITTED_EVENT) {
    const changes = isRecord(data) ? data['changes'] : undefined;
    if (!Array.isArray(changes) || changes.length === 0) return 'its data has no changes';
    const checked: { dataType: DataType; value: unknown }[] = [];
    for (const [index, change] of changes.entries()) {
      const result = changeProblem(change, index, types);
      if ('problem' in result) return result.problem;
      checked.push(result);
    }
    for (const { dataType, value } of checked) {
      const outcome = session.dispatch(dataType, value, { now: event.at });
      if (!outcome.ok) return outcome.error.message;
    }
    const problem = producedProblem(session, start.slices, session.snapshot().slices);
    if (problem !== undefined) return problem;
  } else if (event.type === SESSION_ROLLED_BACK_EVENT) {
    const slices = isRecord(data) ? data['slices'] : undefined;
    const snapshot = readSlices(session, slices);
    if (!snapshot.ok) return snapshot.error.message;
    const outcome = session.rollback(snapshot.value, { now: event.at });
    if (!outcome.ok) return outcome.error.message;
  } else {
    return `its type ${event.type} is not one attachStore writes`;
  }
  // The original commit changed the session, so an identical replay must too.
  if (session.snapshot().revision === before)
    return 'replaying it changed nothing (is a reducer impure?)';
  return undefined;
}
