import type { Result } from '@plankit/core';
import { deepFreeze, isRecord } from '@plankit/core/internal-unstable';
import type { ControllerError } from '../controller-error.ts';
import { show } from '../internal/checks.ts';
import { fromMicros, toMicros } from '../internal/micro-usd.ts';
import { readDocument } from '../internal/read-document.ts';
import { isTrusted, trust } from '../internal/trusted-snapshots.ts';
import { ControllerSnapshot } from './controller-snapshot.ts';
import { type CompiledMachine, compiledOf } from './internal/compiled-machine.ts';
import { failure } from './internal/failure.ts';
import { withTraceOf } from './internal/trace-log.ts';
import type { Machine } from './machine.ts';
import { MACHINE_SNAPSHOT_VERSION, type MachineSnapshot } from './machine-snapshot.ts';

type Read = Result<MachineSnapshot, ControllerError>;

function invalid(
  where: string,
  field: string,
  rule: string,
): { ok: false; error: ControllerError } {
  return failure('snapshot_invalid', `${where}: snapshot ${field} ${rule}.`, field);
}

/** The checks that need the machine: names, kinds and statuses agree with it. */
function checkAgainst(machine: CompiledMachine, data: MachineSnapshot, where: string): Read | null {
  if (data.machine !== machine.id) {
    return invalid(where, 'machine', `belongs to machine ${show(data.machine)}, not ${machine.id}`);
  }
  const state = machine.states.get(data.state);
  if (state === undefined)
    return invalid(where, 'state', `names ${data.state}, not a state of ${machine.id}`);
  const expected =
    state.kind === 'final'
      ? ['done']
      : state.kind === 'work'
        ? ['running', 'frozen']
        : ['waiting', 'frozen'];
  if (!expected.includes(data.status)) {
    return invalid(where, 'status', `is ${data.status}, which a ${state.kind} state cannot have`);
  }
  if ((data.status === 'frozen') !== (data.frozen !== null)) {
    return invalid(where, 'frozen', 'must be set exactly when the status is frozen');
  }
  const pending = data.frozen?.pending;
  if (pending != null && !state.on.has(pending.outcome)) {
    return invalid(
      where,
      'frozen.pending.outcome',
      `is ${pending.outcome}, which ${data.state} does not accept`,
    );
  }
  for (const name of Object.keys(data.counters.retries)) {
    if (!machine.states.has(name))
      return invalid(where, `counters.retries.${name}`, 'is not a state of the machine');
  }
  if (data.updatedAt < data.startedAt)
    return invalid(where, 'updatedAt', 'must not be earlier than startedAt');
  // Steps are in time order and the snapshot is as late as its last one, or the next step
  // would write a trace that replay refuses.
  let previous = data.startedAt;
  for (const [index, entry] of data.trace.entries()) {
    const field = `trace[${index}]`;
    if (entry.at < previous) {
      return invalid(where, `${field}.at`, 'must not be earlier than startedAt or the step before');
    }
    previous = entry.at;
    for (const key of ['stage', 'from', 'to'] as const) {
      if (!machine.states.has(entry[key]))
        return invalid(where, `${field}.${key}`, 'is not a state of the machine');
    }
    if (entry.outcome !== null && !machine.outcomes.has(entry.outcome)) {
      return invalid(where, `${field}.outcome`, 'is not an outcome of the machine');
    }
  }
  if (data.updatedAt < previous)
    return invalid(where, 'updatedAt', 'must not be earlier than the last step in the trace');
  return checkCountersAgainstTrace(data, where);
}

/**
 * The counters and the position the trace accounts for: the session's tokens and cost are the
 * sums of its steps', and the state, status and run are the last step's. Counters that disagree would make caps fire early or never.
 */
function checkCountersAgainstTrace(data: MachineSnapshot, where: string): Read | null {
  let tokens = 0;
  let micros = 0;
  for (const entry of data.trace) {
    tokens += entry.tokens;
    micros += toMicros(entry.cost_delta);
  }
  const { counters } = data;
  if (counters.tokens !== tokens) {
    return invalid(
      where,
      'counters.tokens',
      `is ${counters.tokens}, but the trace's steps add up to ${tokens}`,
    );
  }
  if (toMicros(counters.costUsd) !== micros) {
    return invalid(
      where,
      'counters.costUsd',
      `is ${counters.costUsd}, but the trace's steps add up to ${fromMicros(micros)}`,
    );
  }
  const last = data.trace.at(-1);
  if (last === undefined) return null;
  if (data.state !== last.to) {
    return invalid(
      where,
      'state',
      `is ${data.state}, but the trace's last step went to ${last.to}`,
    );
  }
  if (data.status !== last.status) {
    return invalid(
      where,
      'status',
      `is ${data.status}, but the trace's last step left it ${last.status}`,
    );
  }
  if (counters.run !== last.run) {
    return invalid(
      where,
      'counters.run',
      `is ${counters.run}, but the trace's last step is in run ${last.run}`,
    );
  }
  return null;
}

/** Checks a snapshot (parsed or text) against its schema and `machine`; freezes and trusts it. */
export function readSnapshot(machine: CompiledMachine, input: unknown, where: string): Read {
  const read = readDocument(
    input,
    'plankit.machine-snapshot',
    MACHINE_SNAPSHOT_VERSION,
    ControllerSnapshot,
  );
  if (!read.ok) {
    const { problem } = read;
    if (problem.kind === 'invalid') return invalid(where, problem.field, problem.rule);
    return failure(
      'snapshot_version_unknown',
      `${where}: snapshot version ${show(problem.found)} is unknown; this build reads version ${MACHINE_SNAPSHOT_VERSION}.`,
      'version',
    );
  }
  const problem = checkAgainst(machine, read.value, where);
  if (problem !== null) return problem;
  // A long trace moves into a log behind a getter, as the engine's own snapshots hold it.
  // Rest copies the frozen fields into a fresh object, which takes the getter, then freezes.
  const { trace, ...fields } = deepFreeze(read.value);
  return { ok: true, value: Object.freeze(trust(withTraceOf(fields, trace))) };
}

/** A snapshot the package built for this machine, or null when it must be checked in full. */
export function trustedSnapshot(
  machine: CompiledMachine,
  snapshot: unknown,
): MachineSnapshot | null {
  if (!isTrusted(snapshot)) return null;
  const trusted = snapshot as MachineSnapshot;
  return trusted.machine === machine.id && machine.states.has(trusted.state) ? trusted : null;
}

/** A snapshot ready for the engine: one the package built, or one checked in full now. */
export function ensureSnapshot(machine: CompiledMachine, snapshot: unknown, where: string): Read {
  const trusted = trustedSnapshot(machine, snapshot);
  if (trusted !== null) return { ok: true, value: trusted };
  if (!isRecord(snapshot)) return invalid(where, 'value', 'must be a machine snapshot object');
  return readSnapshot(machine, snapshot, where);
}

/**
 * Reads a snapshot stored as JSON (the text, or the parsed value) for `machine`, in this
 * process or another one.
 *
 * @returns the frozen snapshot, or a {@link ControllerError}: `snapshot_invalid` (malformed
 *   JSON, a wrong shape or value, another machine's snapshot, a state or outcome the machine
 *   does not have) naming the field, or `snapshot_version_unknown`
 * @example
 * ```ts
 * const planningMachine = createPlanningController();
 * await writeFile('controller.json', JSON.stringify(snapshot));
 * // later, anywhere:
 * const read = machineSnapshotFromJSON(planningMachine, await readFile('controller.json', 'utf8'));
 * if (read.ok) snapshot = read.value;
 * ```
 * @public
 */
export function machineSnapshotFromJSON<S extends string, O extends string>(
  machine: Machine<S, O>,
  input: unknown,
): Result<MachineSnapshot<S, O>, ControllerError> {
  const compiled = compiledOf(machine, 'machineSnapshotFromJSON');
  return readSnapshot(compiled, input, 'machineSnapshotFromJSON') as Result<
    MachineSnapshot<S, O>,
    ControllerError
  >;
}
