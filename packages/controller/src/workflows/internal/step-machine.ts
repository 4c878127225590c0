import type { Result } from '@plankit/core';
import { clipText } from '@plankit/core/internal-unstable';
import type { Machine } from '../../engine/machine.ts';
import type { MachineSnapshot } from '../../engine/machine-snapshot.ts';
import { transition } from '../../engine/transition.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { fail } from './checks.ts';

/** A workflow's machine, as its refusals name it. */
export interface WorkflowMachine<S extends string, O extends string> {
  readonly machine: Machine<S, O>;
  /** How messages call it: `the phase controller`. */
  readonly name: string;
  /** Where the workflow's state holds its snapshot: `job.machine`. */
  readonly field: string;
}

/**
 * Moves `snapshot` by `outcome`, the reason clipped to the engine's 2,000 characters; the
 * engine's refusal is `machine_refused`. A snapshot a cap froze comes back as it is: each
 * workflow reports that in its own words.
 */
export function stepMachine<S extends string, O extends string>(
  where: string,
  { machine, name, field }: WorkflowMachine<S, O>,
  snapshot: MachineSnapshot<S, O>,
  outcome: O,
  now: number,
  reason: string | null,
): Result<MachineSnapshot<S, O>, WorkflowError> {
  const next = transition(machine, snapshot, {
    outcome,
    now,
    reason: reason === null ? null : clipText(reason, 2000),
  });
  if (next.ok) return next;
  return fail(
    'machine_refused',
    `${where}: ${name} refused ${outcome}: ${next.error.message}`,
    field,
    next.error,
  );
}
