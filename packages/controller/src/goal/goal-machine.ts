import { defineMachine } from '../engine/define-machine.ts';
import type { Machine } from '../engine/machine.ts';

/** The states of the goal machine. @public */
export type GoalStage = 'WORKING' | 'BLOCKED' | 'ACHIEVED' | 'UNMET' | 'BUDGET_LIMITED';

/** The outcomes the goal machine takes: one per decision, and `resumed` after a question. @public */
export type GoalOutcome =
  | 'continue'
  | 'achieved'
  | 'unmet'
  | 'budget_limited'
  | 'blocked'
  | 'resumed';

/**
 * The goal's decision machine: `WORKING` loops on `continue` and leaves on `achieved`,
 * `unmet`, `budget_limited` (final states) or `blocked` (a wait for the person, left on
 * `resumed`). Its trace records every decision with the turn's tokens and cost, and the
 * engine's `replay` checks it. Its own caps are off: the goal counts its budget across pauses
 * and questions, which the engine's per-run counters would reset.
 *
 * @public
 */
export const goalMachine: Machine<GoalStage, GoalOutcome> = defineMachine<GoalStage, GoalOutcome>({
  id: 'goal',
  description:
    'A goal the agent works toward until it is achieved, unmet, out of budget or blocked.',
  initial: 'WORKING',
  caps: { turns: null, retries: null, wallTimeMs: null, costUsd: null, tokens: null, stall: null },
  onCap: { default: 'BUDGET_LIMITED' },
  states: {
    WORKING: {
      description: 'the agent works a turn; the decision says whether it goes on',
      on: {
        continue: 'WORKING',
        achieved: 'ACHIEVED',
        unmet: 'UNMET',
        budget_limited: 'BUDGET_LIMITED',
        blocked: 'BLOCKED',
      },
    },
    BLOCKED: {
      kind: 'wait',
      description: 'a person answers the question the re-plan guard asked',
      on: { resumed: 'WORKING' },
    },
    ACHIEVED: { kind: 'final' },
    UNMET: { kind: 'final' },
    BUDGET_LIMITED: { kind: 'final' },
  },
});
