import { compiledOf } from './internal/compiled-machine.ts';
import type { Machine } from './machine.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';
import { ensureSnapshot } from './machine-snapshot-from-json.ts';

const NONE: readonly never[] = Object.freeze([]);

/**
 * The outcomes the current state accepts, in definition order (guards are not evaluated): what
 * to offer the agent, or to put in its prompt. Empty when the machine is done or frozen.
 *
 * @throws ControllerError `argument_invalid` for a machine not made by `defineMachine`;
 *   `snapshot_invalid` for a snapshot that does not belong to it
 * @example
 * ```ts
 * const planningMachine = createPlanningController();
 * allowedOutcomes(planningMachine, snapshot); // ['sufficient_context', 'needs_clarification', ...]
 * ```
 * @public
 */
export function allowedOutcomes<S extends string, O extends string>(
  machine: Machine<S, O>,
  snapshot: MachineSnapshot<S, O>,
): readonly O[] {
  const compiled = compiledOf(machine, 'allowedOutcomes');
  const checked = ensureSnapshot(compiled, snapshot, 'allowedOutcomes');
  if (!checked.ok) throw checked.error;
  const { status, state } = checked.value;
  if (status === 'done' || status === 'frozen') return NONE;
  return machine.states[state as S].outcomes;
}
