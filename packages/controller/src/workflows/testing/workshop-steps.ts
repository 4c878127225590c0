import { startWorkshop } from '../workshop/start-workshop.ts';
import { type RoundSignals, workshopRound } from '../workshop/workshop-round.ts';
import type { WorkshopState } from '../workshop/workshop-state.ts';
import { writeArtifact } from '../workshop/write-artifact.ts';
import { unwrap } from './unwrap.ts';
import { FILES, PLAN } from './workshop-fixtures.ts';

/** One round with one entry, a millisecond after the last step. */
export function round(
  state: WorkshopState,
  signals: RoundSignals = {},
  content = 'talk',
): WorkshopState {
  return unwrap(
    workshopRound(state, {
      now: state.updatedAt + 1,
      entries: [{ actor: 'planner', content }],
      signals,
    }),
  );
}

/** A workshop brought to formalizing through clarifying, with no artifact yet. */
export function formalizing(now = 0): WorkshopState {
  return round(round(startWorkshop({ now, brief: 'Add SSO.' })), { no_new_info: true });
}

/** Writes an artifact a millisecond after the last step. */
export function write(state: WorkshopState, name: string, content: string): WorkshopState {
  return unwrap(writeArtifact(state, { now: state.updatedAt + 1, name, content }));
}

/** A workshop in formalizing with the plan and the matching file plan written. */
export function compiled(now = 0): WorkshopState {
  return write(
    write(formalizing(now), 'planning.ai.json', JSON.stringify(PLAN)),
    'plan.files.json',
    JSON.stringify(FILES),
  );
}
