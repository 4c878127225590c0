import type { Result } from '@plankit/core';
import { deepFreeze } from '@plankit/core/internal-unstable';
import { machineSnapshotFromJSON } from '../../engine/machine-snapshot-from-json.ts';
import { invalid, readState } from '../internal/read-state.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { workshopMachine } from './workshop-machine.ts';
import { WorkshopState } from './workshop-state.ts';
import { artifactProblems } from './workshop-step.ts';

const WHERE = 'workshopFromJSON';

/** The first way the parts of a workshop disagree or break an invariant, if they do. */
function disagreement(state: WorkshopState): Result<never, WorkflowError> | null {
  const { machine } = state;
  if (Object.values(machine.caps).some((limit) => limit !== null)) {
    return invalid(WHERE, 'machine.caps', 'must all be null: a workshop has no caps');
  }
  if (machine.status === 'frozen') return invalid(WHERE, 'machine.status', 'must not be frozen');
  if (new Set(state.artifactNames).size !== state.artifactNames.length) {
    return invalid(WHERE, 'artifactNames', 'must be distinct');
  }
  let last = -1;
  for (const [index, artifact] of state.artifacts.entries()) {
    const at = state.artifactNames.indexOf(artifact.name);
    if (at <= last)
      return invalid(
        WHERE,
        `artifacts[${index}].name`,
        'must be a configured artifact, once, in configured order',
      );
    last = at;
  }
  if (
    state.artifacts.length > 0 &&
    machine.state !== 'formalizing' &&
    machine.state !== 'review_ready'
  ) {
    return invalid(
      WHERE,
      'artifacts',
      `must be empty in ${machine.state}: no structured plan exists before formalizing`,
    );
  }
  if (machine.state === 'review_ready') {
    const problem = artifactProblems(state)[0];
    if (problem !== undefined)
      return invalid(WHERE, 'artifacts', `do not allow review_ready: ${problem}`);
  }
  let round = 0;
  for (const [index, entry] of state.transcript.entries()) {
    if (entry.round < round || entry.round > state.round) {
      return invalid(
        WHERE,
        `transcript[${index}].round`,
        'must not go back or past the round counter',
      );
    }
    round = entry.round;
  }
  if (state.attempt !== state.redos.length + 1) {
    return invalid(WHERE, 'attempt', 'must be one more than the number of redos');
  }
  if (state.updatedAt < machine.updatedAt || state.updatedAt < state.startedAt) {
    return invalid(
      WHERE,
      'updatedAt',
      "must not be earlier than startedAt or the machine's updatedAt",
    );
  }
  return null;
}

/**
 * Reads a workshop stored as JSON (the text, or the parsed value), in this process or another
 * one: the format, the version, every field, the machine snapshot (against `workshopMachine`)
 * and the invariants (no artifact before formalizing, every artifact in review_ready, the
 * transcript in round order).
 *
 * @returns the frozen state, or a {@link WorkflowError}: `state_invalid` naming the field, or
 *   `state_version_unknown`
 * @example
 * ```ts
 * const read = workshopFromJSON(await readFile('workshop.json', 'utf8'));
 * ```
 * @public
 */
export function workshopFromJSON(input: unknown): Result<WorkshopState, WorkflowError> {
  const read = readState(WHERE, input, 'plankit.workshop', WorkshopState);
  if (!read.ok) return read;
  const machine = machineSnapshotFromJSON(workshopMachine, read.value.machine);
  if (!machine.ok) {
    const field = machine.error.field === undefined ? 'machine' : `machine.${machine.error.field}`;
    return invalid(WHERE, field, `is invalid: ${machine.error.message}`, machine.error);
  }
  const state: WorkshopState = { ...read.value, machine: machine.value };
  return disagreement(state) ?? { ok: true, value: deepFreeze(state) };
}
