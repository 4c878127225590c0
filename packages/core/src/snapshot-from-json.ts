import { isRecord } from './internal/is-record.ts';
import { deepFreeze } from './internal/produce.ts';
import { clipText, refusalText, unregisteredSliceText } from './internal/refusal-text.ts';
import { checkedSnapshots } from './internal/tool-delivery.ts';
import { valueProblem } from './internal/value-problem.ts';
import type { Result } from './result.ts';
import type { Session } from './session.ts';
import { SessionError } from './session-error.ts';
import type { SessionSnapshot } from './session-snapshot.ts';
import { SNAPSHOT_VERSION } from './snapshot-to-json.ts';

function fail(
  session: Session,
  code: SessionError['code'],
  message: string,
  field?: string,
): Result<never, SessionError> {
  return {
    ok: false,
    error: new SessionError(code, refusalText(message), { field, sessionId: session.sessionId }),
  };
}

/**
 * Reads a snapshot written by {@link snapshotToJSON} (as text or parsed), checking it against
 * the slices `session` has registered with the rules {@link Session.dispatch} applies: every
 * value must satisfy its data type's schema (for plans, the plan invariants: unique,
 * well-formed step ids within `MAX_STEP_NUMBER`, a status that agrees with the steps) and be
 * storable JSON data. Pass the result to {@link Session.rollback} to restore it. Messages stay
 * under 2,000 characters.
 *
 * @returns the frozen snapshot, or a {@link SessionError}: `snapshot_invalid` (malformed JSON
 *   or shape, or a value its schema rejects), `snapshot_version_unknown`, `slice_unregistered`
 * @public
 */
export function snapshotFromJSON(
  input: unknown,
  session: Session,
): Result<SessionSnapshot, SessionError> {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return fail(session, 'snapshot_invalid', `Snapshot is not valid JSON: ${reason}`);
    }
  }
  if (!isRecord(data) || data['format'] !== 'plankit.session-snapshot') {
    return fail(
      session,
      'snapshot_invalid',
      'Snapshot must be an object with format "plankit.session-snapshot".',
      'format',
    );
  }
  const { version, sessionId, revision, slices } = data;
  if (version !== SNAPSHOT_VERSION) {
    return fail(
      session,
      'snapshot_version_unknown',
      `Snapshot version ${clipText(JSON.stringify(version) ?? 'undefined', 40)} is unknown; this build reads version ${SNAPSHOT_VERSION}.`,
      'version',
    );
  }
  if (typeof sessionId !== 'string' || sessionId.length === 0) {
    return fail(
      session,
      'snapshot_invalid',
      'Snapshot sessionId must be a non-empty string.',
      'sessionId',
    );
  }
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) {
    return fail(
      session,
      'snapshot_invalid',
      'Snapshot revision must be a non-negative integer.',
      'revision',
    );
  }
  if (!isRecord(slices))
    return fail(session, 'snapshot_invalid', 'Snapshot slices must be an object.', 'slices');
  const types = session.sliceTypes();
  const restored: Record<string, readonly unknown[]> = {};
  for (const name of Object.keys(slices)) {
    const type = types.get(name);
    if (type === undefined) {
      return fail(
        session,
        'slice_unregistered',
        unregisteredSliceText(name),
        `slices.${clipText(name, 200)}`,
      );
    }
    const values = slices[name];
    if (!Array.isArray(values)) {
      return fail(session, 'snapshot_invalid', `Slice ${name} must be an array.`, `slices.${name}`);
    }
    const parsed: unknown[] = [];
    for (let index = 0; index < values.length; index++) {
      // The rules dispatch applies: the schema, then what every store can hold.
      const check = valueProblem(type, values[index]);
      if ('field' in check) {
        return fail(
          session,
          'snapshot_invalid',
          `Slice ${name} item ${index} ${check.message}`,
          `slices.${name}[${index}]`,
        );
      }
      parsed.push(check.data);
    }
    Object.defineProperty(restored, name, { value: parsed, enumerable: true });
  }
  const snapshot: SessionSnapshot = { sessionId, revision, slices: restored };
  checkedSnapshots.set(snapshot, true);
  deepFreeze(snapshot);
  return { ok: true, value: snapshot };
}
