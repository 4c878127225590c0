import type { AdaptationLogEntry } from './adaptation-log-entry.ts';
import type { MachineSnapshot } from './machine-snapshot.ts';

/**
 * Every adaptation recorded in the snapshot's trace, oldest first.
 *
 * @public
 */
export function adaptationLog(snapshot: MachineSnapshot): readonly AdaptationLogEntry[] {
  const out: AdaptationLogEntry[] = [];
  for (const entry of snapshot.trace) for (const item of entry.adaptations) out.push(item);
  return Object.freeze(out);
}
