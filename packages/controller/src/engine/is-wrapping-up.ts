import { isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { toMicros } from '../internal/micro-usd.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';

/**
 * True when a soft limit is reached: turns in this run at or over `soft.turns`, or the
 * session's cost at or over `soft.costUsd`. While it is, the host should restrict tools and ask
 * the agent to wrap up. The `wrap_up` signal marks the step where it became true.
 *
 * @throws ControllerError `argument_invalid` for a value that is not a machine snapshot
 * @public
 */
export function isWrappingUp(snapshot: MachineSnapshot): boolean {
  if (!isRecord(snapshot) || !isRecord(snapshot.soft) || !isRecord(snapshot.counters)) {
    throw new ControllerError(
      'argument_invalid',
      'isWrappingUp: snapshot must be a machine snapshot.',
      {
        field: 'snapshot',
      },
    );
  }
  const { soft, counters } = snapshot;
  if (soft.turns !== null && counters.turns >= soft.turns) return true;
  return soft.costUsd !== null && toMicros(counters.costUsd) >= toMicros(soft.costUsd);
}
