import type { Result } from '@plankit/core';
import { initialSnapshot } from '../../engine/initial-snapshot.ts';
import { inputProblem, textProblem } from '../internal/checks.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { workshopMachine } from './workshop-machine.ts';
import type { WorkshopState } from './workshop-state.ts';
import { ensureWorkshop, nextWorkshop } from './workshop-step.ts';

/** What {@link redoWorkshop} takes. @public */
export interface RedoWorkshopInput {
  /** When, in epoch milliseconds; not earlier than the state's `updatedAt`. */
  readonly now: number;
  /** Why planning runs again (at most 2,000 characters). */
  readonly reason?: string | null | undefined;
}

const WHERE = 'redoWorkshop';
const KEYS: ReadonlySet<string> = new Set(['now', 'reason']);

/**
 * `/redo planning`, from any state: keeps the current artifacts, the stage, the
 * round and the machine trace as a snapshot in `redos`, and restarts at draft with no
 * artifacts. The brief, the round counter and the transcript stay, for the context of the
 * next attempt.
 *
 * @returns the restarted state, or a {@link WorkflowError} `input_invalid`
 * @throws WorkflowError `argument_invalid` for a value that is not a workshop
 * @example
 * ```ts
 * const again = redoWorkshop(state, { now, reason: 'the scope changed' });
 * ```
 * @public
 */
export function redoWorkshop(
  state: WorkshopState,
  input: RedoWorkshopInput,
): Result<WorkshopState, WorkflowError> {
  ensureWorkshop(WHERE, state);
  const problem =
    inputProblem(WHERE, input, KEYS, state.updatedAt) ??
    textProblem(WHERE, 'input.reason', input.reason, 2000);
  if (problem !== null) return { ok: false, error: problem };
  const { now } = input;
  return {
    ok: true,
    value: nextWorkshop(state, {
      machine: initialSnapshot(workshopMachine, { now }),
      artifacts: [],
      problems: [],
      attempt: state.attempt + 1,
      redos: [
        ...state.redos,
        {
          attempt: state.attempt,
          at: now,
          round: state.round,
          stage: state.machine.state,
          reason: input.reason ?? null,
          artifacts: state.artifacts,
          trace: state.machine.trace,
        },
      ],
      updatedAt: now,
    }),
  };
}
