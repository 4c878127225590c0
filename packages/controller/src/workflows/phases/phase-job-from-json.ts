import type { Result } from '@plankit/core';
import { deepFreeze } from '@plankit/core/internal-unstable';
import { machineSnapshotFromJSON } from '../../engine/machine-snapshot-from-json.ts';
import { invalid, readState } from '../internal/read-state.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { phaseController } from './phase-controller.ts';
import { PhaseJob } from './phase-job.ts';

const WHERE = 'phaseJobFromJSON';

/** Why a list of todos could not have passed the todo rules (unique ids, real content). */
function specsProblem(
  specs: readonly { readonly id: number; readonly content: string }[],
): string | null {
  const ids = new Set<number>();
  for (const { id, content } of specs) {
    if (ids.has(id)) return 'must have unique ids';
    ids.add(id);
    if (content.trim() === '') return 'must each have a non-blank content';
  }
  return null;
}

/** The first way the parts of a job disagree, if they do. */
function disagreement(job: PhaseJob): Result<never, WorkflowError> | null {
  const { machine, settings, review } = job;
  if (Object.values(machine.caps).some((limit) => limit !== null)) {
    return invalid(WHERE, 'machine.caps', 'must all be null: a phase job has no caps');
  }
  if (machine.status === 'frozen') return invalid(WHERE, 'machine.status', 'must not be frozen');
  if ((machine.state === 'tactical') !== (job.phase === 'tactical')) {
    return invalid(WHERE, 'phase', `is ${job.phase}, but the controller is in ${machine.state}`);
  }
  if ((machine.state === 'pending_review') !== (job.handoff !== null)) {
    return invalid(WHERE, 'handoff', 'must be set exactly while the job waits for review');
  }
  if ((job.phaseKind === 'tactical') !== (job.phase === 'tactical')) {
    return invalid(
      WHERE,
      'phaseKind',
      `is ${job.phaseKind}, which a ${job.phase} phase cannot have`,
    );
  }
  if (settings.todoRange.min > settings.todoRange.max) {
    return invalid(WHERE, 'settings.todoRange', 'must have min <= max');
  }
  const ids = new Set(job.todos.map((todo) => todo.id));
  if (ids.size !== job.todos.length) return invalid(WHERE, 'todos', 'must have unique ids');
  const { min, max } = settings.todoRange;
  for (const list of ['initial', 'transition', 'revision'] as const) {
    const problem = specsProblem(settings.todos[list]);
    if (problem !== null) return invalid(WHERE, `settings.todos.${list}`, problem);
  }
  if (job.phase === 'tactical') {
    // A tactical phase starts only with todos that passed the hand-off gate.
    if (job.todos.length < min || job.todos.length > max) {
      return invalid(
        WHERE,
        'todos',
        `must number ${min}-${max} in a tactical phase (the hand-off gate), got ${job.todos.length}`,
      );
    }
    const problem = specsProblem(job.todos);
    if (problem !== null) return invalid(WHERE, 'todos', problem);
  } else {
    // A strategic phase runs the predefined todos of its kind, in order.
    const specs = settings.todos[job.phaseKind as 'initial' | 'transition' | 'revision'];
    if (
      specs.length !== job.todos.length ||
      specs.some(
        (spec, i) => spec.id !== job.todos[i]?.id || spec.content !== job.todos[i]?.content,
      )
    ) {
      return invalid(
        WHERE,
        'todos',
        `must be the predefined ${job.phaseKind} todos of settings.todos.${job.phaseKind}`,
      );
    }
  }
  if (job.handoff !== null) {
    const held = job.handoff.todos;
    if (held.length < min || held.length > max) {
      return invalid(
        WHERE,
        'handoff.todos',
        `must number ${min}-${max} (the hand-off gate), got ${held.length}`,
      );
    }
    const problem = specsProblem(held);
    if (problem !== null) return invalid(WHERE, 'handoff.todos', problem);
  }
  if (machine.state === 'pending_review' && job.todos.some((todo) => todo.status !== 'completed')) {
    return invalid(WHERE, 'todos', 'must all be completed while the job waits for review');
  }
  if ((review.status === 'off') === settings.interactive) {
    return invalid(
      WHERE,
      'review.status',
      `is ${review.status}, which contradicts settings.interactive`,
    );
  }
  if (
    review.cycles !== review.feedback.length ||
    review.feedback.some((entry, i) => entry.cycle !== i + 1)
  ) {
    return invalid(WHERE, 'review.feedback', 'must hold one entry per cycle, numbered from 1');
  }
  if (job.updatedAt < machine.updatedAt || job.updatedAt < job.startedAt) {
    return invalid(
      WHERE,
      'updatedAt',
      "must not be earlier than startedAt or the controller's updatedAt",
    );
  }
  return null;
}

/**
 * Reads a phase job stored as JSON (the text, or the parsed value), in this process or
 * another one: the format, the version, every field, the controller snapshot (against
 * `phaseController`) and that the parts agree.
 *
 * @returns the frozen job, or a {@link WorkflowError}: `state_invalid` naming the field, or
 *   `state_version_unknown`
 * @example
 * ```ts
 * await writeFile('job.json', JSON.stringify(job));
 * // later, in another process:
 * const read = phaseJobFromJSON(await readFile('job.json', 'utf8'));
 * if (read.ok) job = read.value;
 * ```
 * @public
 */
export function phaseJobFromJSON(input: unknown): Result<PhaseJob, WorkflowError> {
  const read = readState(WHERE, input, 'plankit.phase-job', PhaseJob);
  if (!read.ok) return read;
  const machine = machineSnapshotFromJSON(phaseController, read.value.machine);
  if (!machine.ok) {
    const field = machine.error.field === undefined ? 'machine' : `machine.${machine.error.field}`;
    return invalid(WHERE, field, `is invalid: ${machine.error.message}`, machine.error);
  }
  const job: PhaseJob = { ...read.value, machine: machine.value };
  return disagreement(job) ?? { ok: true, value: deepFreeze(job) };
}
