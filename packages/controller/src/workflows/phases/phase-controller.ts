import { CAP_NAMES } from '../../engine/default-caps.ts';
import { defineMachine } from '../../engine/define-machine.ts';
import type { Machine } from '../../engine/machine.ts';

/** The states of the phase controller, with the plan review. @public */
export type PhaseStage = 'strategic' | 'pending_review' | 'tactical' | 'complete';

/** Every outcome some state of the phase controller accepts. @public */
export type PhaseOutcome =
  | 'handoff_accepted'
  | 'handoff_held'
  | 'handoff_rejected'
  | 'job_completed'
  | 'review_approved'
  | 'review_skipped'
  | 'changes_requested'
  | 'phase_completed';

// A job runs for hours or days, across processes: no cap applies unless a host sets one, and
// a cap that does fire freezes the job for a person rather than ending it.
const NO_CAPS = {
  turns: null,
  retries: null,
  wallTimeMs: null,
  costUsd: null,
  tokens: null,
  stall: null,
} as const;

/**
 * The phase alternation as a machine: strategic phases plan, tactical phases execute,
 * a validated hand-off leads from one to the other, and the first plan may wait in
 * `pending_review` for a person. Drive it through `startPhaseJob`, `completeTodo`,
 * `completeJob`, `approvePlan`, `requestChanges` and `skipReview`, which check the gates and
 * choose the outcome; the transition table is in `specs/workflows.md`.
 *
 * @public
 */
export const phaseController: Machine<PhaseStage, PhaseOutcome> = defineMachine<
  PhaseStage,
  PhaseOutcome,
  typeof CAP_NAMES
>({
  id: 'plankit.phase-controller',
  description: 'Strategic/tactical phase alternation, with a review of the first plan.',
  initial: 'strategic',
  caps: NO_CAPS,
  freezeOn: CAP_NAMES,
  states: {
    strategic: {
      description: 'writes workspace.md, main_plan.md and todos.yaml',
      on: {
        handoff_accepted: 'tactical',
        handoff_held: 'pending_review',
        handoff_rejected: 'strategic',
        job_completed: 'complete',
      },
    },
    pending_review: {
      kind: 'wait',
      description: 'a person reviews the plan',
      on: {
        review_approved: 'tactical',
        review_skipped: 'tactical',
        changes_requested: 'strategic',
      },
    },
    tactical: {
      description: 'executes the todos with domain tools',
      on: { phase_completed: 'strategic' },
    },
    complete: { kind: 'final' },
  },
});
