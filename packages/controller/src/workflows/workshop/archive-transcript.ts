import type { Result } from '@plankit/core';
import { inputProblem } from '../internal/checks.ts';
import type { WorkflowError } from '../workflow-error.ts';
import type { WorkshopState } from './workshop-state.ts';
import { ensureWorkshop, nextWorkshop } from './workshop-step.ts';

/** What {@link archiveTranscript} takes. @public */
export interface ArchiveTranscriptInput {
  /** When, in epoch milliseconds; not earlier than the state's `updatedAt`. */
  readonly now: number;
}

const WHERE = 'archiveTranscript';
const KEYS: ReadonlySet<string> = new Set(['now']);

/**
 * The one explicit way to let go of transcript entries (the transcript is otherwise append-only): the
 * transcript is emptied and its length added to `archivedEntries`. Save the entries first
 * (the workspace's `archiveMeeting` moves `planning/meeting.jsonl` aside); no other step
 * removes or changes an entry.
 *
 * @returns the state with an empty transcript, or a {@link WorkflowError} `input_invalid`
 * @throws WorkflowError `argument_invalid` for a value that is not a workshop
 * @example
 * ```ts
 * const moved = await workspace.archiveMeeting();
 * if (moved.ok) state = unwrap(archiveTranscript(state, { now }));
 * ```
 * @public
 */
export function archiveTranscript(
  state: WorkshopState,
  input: ArchiveTranscriptInput,
): Result<WorkshopState, WorkflowError> {
  ensureWorkshop(WHERE, state);
  const problem = inputProblem(WHERE, input, KEYS, state.updatedAt);
  if (problem !== null) return { ok: false, error: problem };
  return {
    ok: true,
    value: nextWorkshop(state, {
      transcript: [],
      archivedEntries: state.archivedEntries + state.transcript.length,
      updatedAt: input.now,
    }),
  };
}
