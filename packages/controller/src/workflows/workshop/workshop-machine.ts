import { CAP_NAMES } from '../../engine/default-caps.ts';
import { defineMachine } from '../../engine/define-machine.ts';
import type { Machine } from '../../engine/machine.ts';

/** The states of the planning workshop. @public */
export type WorkshopStage = 'draft' | 'clarifying' | 'workshop' | 'formalizing' | 'review_ready';

/** Every outcome some state of the planning workshop accepts. @public */
export type WorkshopOutcome =
  | 'questions_needed'
  | 'questions_blocking'
  | 'answers_provided'
  | 'questions_resolved'
  | 'round_continued'
  | 'structure_stabilized'
  | 'plan_synthesized'
  | 'plan_blocked';

/**
 * The planning workshop's state machine: draft, clarifying, workshop rounds, formalizing, and
 * review_ready once every artifact is written and consistent. Drive it through
 * `startWorkshop`, `workshopRound`, `writeArtifact` and `redoWorkshop`, which read the round's
 * signals, enforce the invariants and choose the outcome; the transition table is in
 * `specs/workflows.md`.
 *
 * @public
 */
export const workshopMachine: Machine<WorkshopStage, WorkshopOutcome> = defineMachine<
  WorkshopStage,
  WorkshopOutcome,
  typeof CAP_NAMES
>({
  id: 'plankit.workshop',
  description: 'Planning workshop: from a brief to a structured plan ready for review.',
  initial: 'draft',
  // Planning takes as many rounds as it takes; hosts limit rounds themselves.
  caps: { turns: null, retries: null, wallTimeMs: null, costUsd: null, tokens: null, stall: null },
  freezeOn: CAP_NAMES,
  states: {
    draft: {
      description: 'only the brief exists',
      on: { questions_needed: 'clarifying' },
    },
    clarifying: {
      description: 'the model asks clarifying questions',
      on: {
        questions_blocking: 'clarifying',
        answers_provided: 'workshop',
        questions_resolved: 'formalizing',
      },
    },
    workshop: {
      description: 'rounds on tasks, risks, acceptance criteria and files',
      on: { round_continued: 'workshop', structure_stabilized: 'formalizing' },
    },
    formalizing: {
      description: 'the JSON plan, the file plan and plan.md are compiled',
      on: { plan_synthesized: 'review_ready', plan_blocked: 'formalizing' },
    },
    review_ready: { kind: 'final' },
  },
});
