import type { Result } from '@plankit/core';
import { isRecord } from '@plankit/core/internal-unstable';
import { unknownKey } from '../../internal/checks.ts';
import { inputError, inputProblem } from '../internal/checks.ts';
import type { WorkflowError } from '../workflow-error.ts';
import type { WorkshopOutcome } from './workshop-machine.ts';
import { WORKSHOP_SIGNAL_NAMES } from './workshop-signals.ts';
import { type TranscriptEntry, WORKSHOP_LIMITS, type WorkshopState } from './workshop-state.ts';
import {
  artifactProblems,
  doneProblem,
  ensureWorkshop,
  nextWorkshop,
  stepWorkshop,
} from './workshop-step.ts';

/**
 * The workshop signals, as the agent (or the host's heuristics) reports them after a round.
 * Each is false when left out.
 *
 * @public
 */
export interface RoundSignals {
  /** Open questions block progress: stay in clarifying (or keep workshopping). */
  readonly blocking_questions?: boolean | undefined;
  /** The round brought nothing new: move toward formalizing. */
  readonly no_new_info?: boolean | undefined;
  /** The plan is stable enough to commit to: move toward formalizing. */
  readonly commitment_readiness?: boolean | undefined;
  /**
   * The agent's own check that `plan.files.json` matches the plan; `false` blocks formalizing.
   * The workshop checks consistency itself either way.
   */
  readonly file_plan_consistency?: boolean | undefined;
}

/** What one round said. @public */
export interface RoundEntry {
  /** Who: 1-64 characters on one line. */
  readonly actor: string;
  /** What: 1-100,000 characters. */
  readonly content: string;
}

/** What {@link workshopRound} takes. @public */
export interface WorkshopRoundInput {
  /** When, in epoch milliseconds; not earlier than the state's `updatedAt`. */
  readonly now: number;
  /** What was said in the round: 1-100 entries, appended to the transcript. */
  readonly entries: readonly RoundEntry[];
  /** The round's signals. */
  readonly signals?: RoundSignals | undefined;
}

const WHERE = 'workshopRound';
const KEYS: ReadonlySet<string> = new Set(['now', 'entries', 'signals']);
// The signals the round reads are the ones the workshop prompt section documents.
const SIGNAL_KEYS = WORKSHOP_SIGNAL_NAMES;
const SIGNAL_KEY_SET: ReadonlySet<string> = new Set(SIGNAL_KEYS);
const ENTRY_KEYS: ReadonlySet<string> = new Set(['actor', 'content']);

function entriesProblem(entries: unknown): WorkflowError | null {
  if (!Array.isArray(entries) || entries.length === 0 || entries.length > WORKSHOP_LIMITS.entries) {
    return inputError(
      WHERE,
      'input.entries',
      `must list 1-${WORKSHOP_LIMITS.entries} entries: every round adds to the transcript`,
    );
  }
  for (const [index, entry] of entries.entries()) {
    const at = `input.entries[${index}]`;
    if (!isRecord(entry) || unknownKey(entry, ENTRY_KEYS) !== undefined) {
      return inputError(WHERE, at, 'must be { actor, content }');
    }
    const { actor, content } = entry;
    if (
      typeof actor !== 'string' ||
      actor.trim() === '' ||
      actor.length > WORKSHOP_LIMITS.actor ||
      /[\r\n]/.test(actor)
    ) {
      return inputError(
        WHERE,
        `${at}.actor`,
        `must be one line of 1-${WORKSHOP_LIMITS.actor} characters`,
      );
    }
    if (
      typeof content !== 'string' ||
      content.trim() === '' ||
      content.length > WORKSHOP_LIMITS.content
    ) {
      return inputError(
        WHERE,
        `${at}.content`,
        `must be 1-${WORKSHOP_LIMITS.content} characters, not blank`,
      );
    }
  }
  return null;
}

function signalsProblem(signals: unknown): WorkflowError | null {
  if (signals === undefined) return null;
  if (!isRecord(signals)) return inputError(WHERE, 'input.signals', 'must be an object');
  const extra = unknownKey(signals, SIGNAL_KEY_SET);
  if (extra !== undefined) {
    return inputError(
      WHERE,
      `input.signals.${extra}`,
      `is not a signal; the signals are ${SIGNAL_KEYS.join(', ')}`,
    );
  }
  for (const key of SIGNAL_KEYS) {
    const value = signals[key];
    if (value !== undefined && typeof value !== 'boolean') {
      return inputError(WHERE, `input.signals.${key}`, 'must be a boolean');
    }
  }
  return null;
}

function raised(signals: RoundSignals): string {
  const on = SIGNAL_KEYS.filter((key) => signals[key] === true);
  return on.length === 0 ? 'no signal raised' : `signals: ${on.join(', ')}`;
}

/**
 * Holds one round of the workshop: the round counter grows by one, the entries are
 * appended to the transcript with that round and the state the round was held in, and the
 * signals move the machine:
 *
 * - draft: to clarifying (the brief exists, so planning starts);
 * - clarifying: `blocking_questions` stays; else `no_new_info` or `commitment_readiness` goes
 *   to formalizing; else to workshop;
 * - workshop: `blocking_questions` stays; else `commitment_readiness` or `no_new_info` goes to
 *   formalizing; else another round;
 * - formalizing: to review_ready when every configured artifact is written, `plan.md` is the
 *   rendering of `planning.ai.json`, the file plan is consistent with it (and not reported
 *   otherwise) and no question blocks; else it stays, with the problems in `problems`.
 *
 * @returns the next state, or a {@link WorkflowError}: `workshop_done` in review_ready,
 *   `input_invalid` naming the field
 * @throws WorkflowError `argument_invalid` for a value that is not a workshop
 * @example
 * ```ts
 * const next = workshopRound(state, {
 *   now,
 *   entries: [{ actor: 'planner', content: 'Which identity providers must SSO support?' }],
 *   signals: { blocking_questions: true },
 * });
 * ```
 * @public
 */
export function workshopRound(
  state: WorkshopState,
  input: WorkshopRoundInput,
): Result<WorkshopState, WorkflowError> {
  ensureWorkshop(WHERE, state);
  const problem =
    inputProblem(WHERE, input, KEYS, state.updatedAt) ??
    entriesProblem(input.entries) ??
    signalsProblem(input.signals);
  if (problem !== null) return { ok: false, error: problem };
  const done = doneProblem(WHERE, state);
  if (done !== null) return done;
  const signals = input.signals ?? {};
  const phase = state.machine.state;
  const round = state.round + 1;
  let outcome: WorkshopOutcome;
  let reason = raised(signals);
  let problems: readonly string[] = [];
  switch (phase) {
    case 'draft':
      outcome = 'questions_needed';
      break;
    case 'clarifying':
      outcome = signals.blocking_questions
        ? 'questions_blocking'
        : signals.no_new_info || signals.commitment_readiness
          ? 'questions_resolved'
          : 'answers_provided';
      break;
    case 'workshop':
      outcome =
        !signals.blocking_questions && (signals.commitment_readiness || signals.no_new_info)
          ? 'structure_stabilized'
          : 'round_continued';
      break;
    case 'formalizing': {
      const found = artifactProblems(state);
      if (signals.file_plan_consistency === false)
        found.push('file_plan_consistency was reported false.');
      if (signals.blocking_questions) found.push('Blocking questions remain.');
      problems = found;
      outcome = found.length === 0 ? 'plan_synthesized' : 'plan_blocked';
      if (found.length > 0) reason = found.join(' ');
      break;
    }
    case 'review_ready':
      throw new Error('unreachable: review_ready is final');
    default: {
      const unknown: never = phase;
      throw new Error(`unreachable: workshop state ${String(unknown)}`);
    }
  }
  const machine = stepWorkshop(WHERE, state, outcome, input.now, reason);
  if (!machine.ok) return machine;
  const added: TranscriptEntry[] = input.entries.map(({ actor, content }) => ({
    round,
    actor,
    phase,
    content,
  }));
  return {
    ok: true,
    value: nextWorkshop(state, {
      machine: machine.value,
      round,
      transcript: [...state.transcript, ...added],
      problems,
      updatedAt: input.now,
    }),
  };
}
